import { BOTH_ERAS, HTTP_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { authContext, refusedForCredential } from '../judge/security.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-token-in-uri',
    title: 'The access token in the query string (?access_token=) with no Authorization header is refused',
    category: 'security',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'security-auth-required'],
    probes: ['auth-query', 'twin'],
    spec: {
      url: specUrl(LEGACY, 'basic/authorization#access-token-usage'),
      requirement:
        'Server refuses an access token given in the query string: tokens MUST NOT travel in the URI, and accepting them there invites leaks through logs and proxies.',
    },
    knob: 'token-in-query-accepted',
    fix: 'Read the token only from the Authorization header; ignore access_token query parameters.',
  },
  (v) => {
    const ctx = authContext(v);
    if (ctx) return ctx;
    if (!v.x('auth-query'))
      return {
        status: 'not_applicable',
        reason: 'no_population',
        detail: 'the configured credential is not a Bearer token, so there is no token to move into the query string',
      };
    return refusedForCredential(v, 'auth-query', 'the token in ?access_token= without a header');
  },
);
