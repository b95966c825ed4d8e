import { HTTP_ONLY, LEGACY_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { authContext, refusedForCredential } from '../judge/security.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-session-not-auth',
    title: 'A valid session id without the credential is refused (sessions are not authentication)',
    category: 'security',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'security-auth-required'],
    probes: ['session-no-auth', 'twin'],
    spec: {
      url: specUrl(LEGACY, 'basic/security_best_practices#session-hijacking'),
      requirement:
        'Server that uses authorization MUST check the credential of each request and MUST NOT let a known session id stand in for it.',
    },
    knob: 'session-as-auth',
    fix: 'Check the Authorization header on every request, whatever Mcp-Session-Id it carries.',
  },
  (v) => {
    const ctx = authContext(v);
    if (ctx) return ctx;
    if (!v.ev.sessionId)
      return { status: 'not_applicable', reason: 'no_population', detail: 'the server issued no Mcp-Session-Id (stateless)' };
    return refusedForCredential(v, 'session-no-auth', 'a valid session id without Authorization');
  },
);
