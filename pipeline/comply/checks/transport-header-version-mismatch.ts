import { HTTP_ONLY, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-header-version-mismatch',
    title: 'An MCP-Protocol-Version header that differs from _meta is rejected (400)',
    category: 'transport',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['header-version-mismatch', 'twin'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#server-validation'),
      requirement:
        'Server MUST refuse, with 400 (error -32020), a request whose MCP-Protocol-Version header differs from the version in its _meta.',
    },
    knob: 'accept-header-mismatch',
    fix: 'Compare the MCP-Protocol-Version header with _meta and answer 400 -32020 when they differ.',
  },
  (v) =>
    v.rejected('header-version-mismatch', 'An MCP-Protocol-Version header that differs from _meta is rejected (400)', {
      twin: 'twin',
      codes: [-32020, -32022],
      status: 400,
    }),
);
