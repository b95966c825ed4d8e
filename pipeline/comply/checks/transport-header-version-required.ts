import { HTTP_ONLY, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-header-version-required',
    title: 'A request without the MCP-Protocol-Version header is rejected (400, -32020)',
    category: 'transport',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['header-no-version', 'twin'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#server-validation'),
      requirement: 'Server MUST refuse, with 400 and error -32020, a request sent without the MCP-Protocol-Version header.',
    },
    knob: 'accept-missing-headers',
    fix: 'Require MCP-Protocol-Version on every POST; answer 400 with -32020 when it is missing.',
  },
  (v) =>
    v.rejected('header-no-version', 'A request without the MCP-Protocol-Version header is rejected (400, -32020)', {
      twin: 'twin',
      codes: [-32020],
      status: 400,
    }),
);
