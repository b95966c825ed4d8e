import { HTTP_ONLY, MODERN_ONLY, defineCheck, specUrl } from '../check.ts';
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
    spec: { url: specUrl(MODERN, 'basic/transports/streamable-http#server-validation'), requirement: 'Mcp-Method MUST equal the JSON-RPC method; a header that does not match the body MUST be rejected with HTTP 400 and -32020.' },
    knob: 'accept-header-mismatch',
    fix: 'Compare Mcp-Method with the body method and answer 400 -32020 on a mismatch.',
  },
  (v) => v.rejected('header-method-mismatch', 'An Mcp-Method header that differs from the body method is rejected (400, -32020)', { twin: 'twin', codes: [-32020], status: 400 }),
);
