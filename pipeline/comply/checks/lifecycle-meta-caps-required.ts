import { ANY_WIRE, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'lifecycle-meta-caps-required',
    title: 'A request without _meta clientCapabilities is rejected (-32602, HTTP 400)',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['meta-no-caps', 'twin'],
    spec: {
      url: specUrl(MODERN, 'basic/index#meta'),
      requirement:
        'Server MUST refuse a request whose _meta lacks clientCapabilities (a required key) with error -32602, and status 400 over HTTP.',
    },
    knob: 'accept-missing-meta',
    fix: 'Reject requests lacking io.modelcontextprotocol/clientCapabilities with -32602 and HTTP 400.',
  },
  (v) => v.rejected('meta-no-caps', 'discover without clientCapabilities', { codes: [INVALID_PARAMS], status: 400 }),
);
