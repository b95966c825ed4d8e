import { BOTH_ERAS, HTTP_ONLY, defineCheck, specUrl } from '../check.ts';
import { authContext, refusedForCredential } from '../security-kit.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-auth-required',
    title: 'A request without credentials is refused with 401 (when the server uses authorization)',
    category: 'security',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['auth-none', 'twin'],
    spec: { url: specUrl(LEGACY, 'basic/authorization#token-handling'), requirement: 'MCP servers, acting in their role as an OAuth 2.1 resource server, MUST validate access tokens as described in OAuth 2.1 Section 5.2 ... If validation fails, servers MUST respond according to OAuth 2.1 Section 5.3 error handling requirements (401 when the request lacks a token).' },
    knob: 'accepts-missing-token',
    fix: 'Answer every request without a valid Bearer token with 401 and a WWW-Authenticate challenge.',
  },
  (v) => authContext(v) ?? refusedForCredential(v, 'auth-none', 'the request without Authorization'),
);
