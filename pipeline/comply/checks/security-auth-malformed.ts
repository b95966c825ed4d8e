import { BOTH_ERAS, HTTP_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { authContext, refusedForCredential } from '../judge/security.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-auth-malformed',
    title: 'A Bearer token the server never issued is refused (401/403), not just checked for presence',
    category: 'security',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['auth-garbage', 'twin'],
    spec: {
      url: specUrl(LEGACY, 'basic/authorization#token-handling'),
      requirement: 'Server MUST refuse a bearer token it did not issue, or one that has expired, with 401.',
    },
    knob: 'accepts-any-token',
    fix: 'Validate the token (signature or introspection, audience, expiry); a present but unknown token is a 401.',
  },
  (v) => authContext(v) ?? refusedForCredential(v, 'auth-garbage', 'an unknown Bearer token'),
);
