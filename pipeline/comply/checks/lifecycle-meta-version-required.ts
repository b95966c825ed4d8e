import { ANY_WIRE, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';
import { K_VERSION } from '../gather/request-builder.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'lifecycle-meta-version-required',
    title: 'A request without _meta protocolVersion is rejected (-32602, HTTP 400)',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['meta-no-version', 'twin'],
    spec: {
      url: specUrl(MODERN, 'basic/index#meta'),
      requirement:
        'Server MUST refuse a request whose _meta lacks protocolVersion (a required key) with error -32602, and status 400 over HTTP.',
    },
    knob: 'accept-missing-meta',
    fix: `Reject requests lacking ${K_VERSION} with -32602 and HTTP 400.`,
  },
  // -32020 (header/body mismatch) names the same defect from the header side: accepted
  (v) => v.rejected('meta-no-version', 'discover without protocolVersion', { codes: [INVALID_PARAMS, -32020], status: 400 }),
);
