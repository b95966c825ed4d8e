import { BOTH_ERAS, HTTP_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { authContext, refusedForCredential } from '../judge/security.ts';
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
    spec: {
      url: specUrl(LEGACY, 'basic/authorization#token-handling'),
      requirement:
        'Server that uses authorization MUST validate the access token of each request as an OAuth 2.1 resource server, and answers a request with no token with 401.',
    },
    knob: 'accepts-missing-token',
    fix: 'Answer every request without a valid Bearer token with 401 and a WWW-Authenticate challenge.',
  },
  (v) => authContext(v) ?? refusedForCredential(v, 'auth-none', 'the request without Authorization'),
);
