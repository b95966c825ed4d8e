import { ANY_WIRE, MODERN_ONLY, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-version-unsupported',
    title: 'An unsupported protocol version gets -32022 with data.supported and data.requested',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['version-unsupported', 'twin'],
    spec: {
      url: specUrl(MODERN, 'basic/versioning#protocol-version-negotiation'),
      requirement:
        'Server MUST refuse a request for a protocol version it lacks with error -32022 that lists the versions it has (status 400 over HTTP).',
    },
    knob: 'wrong-version-error',
    moreKnobs: ['modern-by-version-only'],
    fix: 'Answer an unknown protocolVersion with -32022, data {supported: [...], requested}, HTTP 400.',
  },
  (v) => {
    const r = v.rejected('version-unsupported', 'discover with protocolVersion 1999-01-01', { codes: [-32022], status: 400 });
    if (r.status !== 'pass') return r;
    const d = v.error('version-unsupported')!.data;
    if (!isObj(d) || !Array.isArray(d.supported) || d.supported.length === 0) return fail('-32022 without a non-empty data.supported');
    if (d.requested !== '1999-01-01') return fail(`data.requested is ${JSON.stringify(d.requested)}, expected "1999-01-01"`);
    return pass(`-32022, supported ${JSON.stringify(d.supported)}`);
  },
);
