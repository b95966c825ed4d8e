import { HTTP_ONLY, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-header-name-mismatch',
    title: 'An Mcp-Name header that differs from params.name is rejected (400, -32020)',
    category: 'transport',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: HTTP_ONLY,
    capability: 'tools',
    prerequisites: ['transport-post'],
    probes: ['header-name-mismatch', 'tools-call'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#server-validation'),
      requirement:
        'Server MUST refuse, with 400 and error -32020, a request whose Mcp-Name header differs from the tool or prompt name (or resource uri) in its body.',
    },
    knob: 'accept-header-mismatch',
    fix: 'Compare Mcp-Name with params.name/uri (after base64 decoding) and answer 400 -32020 on a mismatch.',
  },
  (v) =>
    v.rejected('header-name-mismatch', 'An Mcp-Name header that differs from params.name is rejected (400, -32020)', {
      twin: 'tools-call',
      codes: [-32020],
      status: 400,
    }),
);
