import { ANY_WIRE, MODERN_ONLY, defineCheck, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-client-info-optional',
    title: 'A request without _meta clientInfo is still served',
    category: 'lifecycle',
    severity: 'MUST',
    basis: 'inferred',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['meta-no-info'],
    spec: {
      url: specUrl(MODERN, 'basic/index#meta'),
      requirement:
        'Server serves a request whose _meta lacks clientInfo: clients SHOULD send it, but only protocolVersion and clientCapabilities are required keys (inferred).',
    },
    knob: 'require-client-info',
    fix: 'Serve requests that omit clientInfo; it is optional.',
  },
  (v) => {
    const r = v.served('meta-no-info', 'discover without clientInfo');
    return 'ok' in r ? pass('served without clientInfo') : r;
  },
);
