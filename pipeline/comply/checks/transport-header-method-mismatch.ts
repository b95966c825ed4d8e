import { HTTP_ONLY, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-header-method-mismatch',
    title: 'An Mcp-Method header that differs from the body method is rejected (400, -32020)',
    category: 'transport',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['header-method-mismatch', 'twin'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#server-validation'),
      requirement: 'Server MUST refuse, with 400 and error -32020, a request whose Mcp-Method header names another method than its body.',
    },
    knob: 'accept-header-mismatch',
    fix: 'Compare Mcp-Method with the body method and answer 400 -32020 on a mismatch.',
  },
  (v) =>
    v.rejected('header-method-mismatch', 'An Mcp-Method header that differs from the body method is rejected (400, -32020)', {
      twin: 'twin',
      codes: [-32020],
      status: 400,
    }),
);
