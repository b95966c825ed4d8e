import { DATE, HTTP_ONLY, LEGACY_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-version-negotiate',
    title: 'initialize with an unknown future version gets a supported version or an error, not an echo',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: HTTP_ONLY,
    probes: ['init-future'],
    spec: {
      url: specUrl(LEGACY, 'basic/lifecycle#version-negotiation'),
      requirement:
        'Server MUST answer initialize asking for a version it lacks with a version it does support, preferably (SHOULD) its newest.',
    },
    knob: 'echo-any-version',
    fix: 'Never echo a protocol version you do not implement; answer with your latest supported one.',
  },
  (v) => {
    const gate = v.unusable('init-future');
    if (gate) return gate;
    if (v.error('init-future')) return pass(`rejected with ${v.error('init-future')!.code}`);
    const pv = v.result('init-future')?.protocolVersion;
    if (pv === '2099-01-01') return fail('echoed the impossible version 2099-01-01');
    if (typeof pv !== 'string' || !DATE.test(pv)) return fail(`answered protocolVersion ${JSON.stringify(pv)}`);
    return pass(`counter-offered ${pv}`);
  },
);
