import { HTTP_ONLY, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { authContext, refusedForCredential } from '../judge/security.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'security-auth-all-methods',
    title: 'Every method requires the credential, not only the handshake (tools/list without it is refused)',
    category: 'security',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: HTTP_ONLY,
    capability: 'tools',
    prerequisites: ['transport-post', 'security-auth-required'],
    probes: ['auth-none-list', 'tools-list'],
    spec: {
      url: specUrl(MODERN, 'basic/authorization#token-requirements'),
      requirement:
        'Server that uses authorization checks the credential on every request, whatever the method: clients MUST send it on each one, and no session carries it over.',
    },
    knob: 'auth-only-handshake',
    fix: 'Run the token check in front of every method, not only server/discover.',
  },
  (v) => {
    const ctx = authContext(v);
    if (ctx) return ctx;
    if (!v.twinServed('tools-list'))
      return { status: 'not_evaluable', reason: 'twin_failed', detail: 'tools/list with the credential was not served either' };
    return refusedForCredential(v, 'auth-none-list', 'tools/list without Authorization');
  },
);
