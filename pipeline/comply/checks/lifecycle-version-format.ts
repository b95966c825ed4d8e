import { ANY_WIRE, DATE, LEGACY_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-version-format',
    title: 'initialize answers with a dated protocol version the server supports',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic/lifecycle#version-negotiation'),
      requirement:
        'Server MUST answer initialize with a protocol version it supports: the one the client asked for when it has it, another of its own otherwise.',
    },
    knob: 'init-bad-version',
    fix: 'Echo 2025-11-25 when supported, else answer with the latest YYYY-MM-DD revision you support.',
  },
  (v) => {
    const pv = v.result('handshake')?.protocolVersion;
    if (typeof pv !== 'string' || !DATE.test(pv)) return fail(`protocolVersion ${JSON.stringify(pv)} is not a YYYY-MM-DD revision`);
    if (pv > LEGACY) return fail(`asked for ${LEGACY}, got the later ${pv}: a version the client did not offer`);
    return pass(
      pv === LEGACY ? `echoed ${LEGACY}` : `counter-offered ${pv}`,
      pv === LEGACY ? undefined : [`server does not support ${LEGACY}; it offered ${pv}`],
    );
  },
);
