import { ANY_WIRE, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'lifecycle-meta-required',
    title: 'A request without _meta is rejected with -32602 (HTTP 400)',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['meta-missing', 'twin'],
    spec: {
      url: specUrl(MODERN, 'basic/index#meta'),
      requirement: 'Server MUST refuse a request that has no _meta at all with error -32602 (Invalid params), and status 400 over HTTP.',
    },
    knob: 'accept-missing-meta',
    fix: 'Reject requests whose params lack _meta with -32602 and HTTP 400.',
  },
  (v) => v.rejected('meta-missing', 'discover without _meta', { codes: [INVALID_PARAMS], status: 400 }),
);
