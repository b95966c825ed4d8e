import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { answerText, authContext } from '../judge/security.ts';
import { GARBAGE_TOKEN } from '../gather/probes/security-kit.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-credential-not-echoed',
    title: 'A rejected credential is not repeated back in the response',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['auth-garbage'],
    spec: {
      url: specUrl(LEGACY, 'basic/security_best_practices#token-passthrough'),
      requirement:
        'Best practice: server never repeats a rejected credential in its answer, where it would land in client logs, proxies and model context (RFC 6750 asks that bearer tokens not leak).',
    },
    knob: 'echo-token',
    fix: 'Say "invalid token" without quoting the token.',
  },
  (v) => {
    const ctx = authContext(v);
    if (ctx) return ctx;
    if (!v.x('auth-garbage')?.response)
      return { status: 'not_evaluable', reason: 'no_population', detail: 'the unknown-token probe got no answer' };
    const leaks = v.ev.exchanges.filter((e) => answerText(e).includes(GARBAGE_TOKEN)).map((e) => e.probe);
    return leaks.length
      ? fail(`the presented credential comes back in the answer to ${leaks.join(', ')}`)
      : pass('the presented credential is not repeated in any answer');
  },
);
