import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { authContext } from '../judge/security.ts';
import { bearerChallenge } from '../gather/probes/security-kit.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-challenge-scope',
    title: 'The 401 challenge names the scope the resource needs',
    category: 'security',
    severity: 'SHOULD',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'security-www-authenticate'],
    probes: ['auth-none'],
    spec: {
      url: specUrl(LEGACY, 'basic/authorization#protected-resource-metadata-discovery-requirements'),
      requirement:
        'Server SHOULD say in its 401 challenge (the scope parameter of WWW-Authenticate, RFC 6750 §3) which scopes the resource needs.',
    },
    knob: 'challenge-no-scope',
    fix: 'Add scope="…" to the Bearer challenge so clients request the right scopes up front.',
  },
  (v) => {
    const ctx = authContext(v);
    if (ctx) return ctx;
    const ch = bearerChallenge(v.header('auth-none', 'www-authenticate'));
    if (!ch) return { status: 'not_applicable', reason: 'no_population', detail: 'no Bearer challenge to read' };
    return ch.scope ? pass(`scope="${ch.scope}"`) : fail('the Bearer challenge names no scope');
  },
);
