import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { authConfigured, loopbackTarget } from '../judge/security.ts';
import { BURST_SIZE } from '../gather/probes/security-kit.ts';
import { LEGACY } from '../types.ts';

const BURST = Array.from({ length: BURST_SIZE }, (_, i) => `burst-${i}`);

export default defineCheck(
  {
    id: 'security-rate-limiting',
    title: `A burst of ${BURST_SIZE} tool calls meets a rate limit (HTTP 429)`,
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    capability: 'tools',
    prerequisites: ['transport-post', 'tools-list'],
    probes: BURST,
    spec: {
      url: specUrl(LEGACY, 'server/tools#security-considerations'),
      requirement:
        'Server MUST limit how fast tools can be called; over HTTP we expect a burst to meet a 429 (the status is our reading: graded as a best practice).',
    },
    knob: 'no-rate-limit',
    fix: 'Limit tool calls per client (token or address) and answer 429 with Retry-After beyond it.',
  },
  (v) => {
    const sent = BURST.map((p) => v.x(p)).filter((e) => e !== undefined);
    if (!sent.length)
      return {
        status: 'not_evaluable',
        reason: 'no_population',
        detail: 'the burst was not sent: no read-only tool to call (bursts go to read-only tools only), or --no-invasive',
      };
    const st = sent.map((e) => e!.response?.status);
    const n429 = st.filter((s) => s === 429).length;
    if (n429) return pass(`${n429} of ${sent.length} answered 429`);
    if (st.every((s) => s === 401 || s === 403))
      return { status: 'not_evaluable', reason: 'auth_gate', detail: `all ${sent.length} answered ${st[0]}` };
    const n5xx = st.filter((s) => (s ?? 0) >= 500).length;
    if (n5xx > sent.length / 2)
      return fail(`${n5xx} of ${sent.length} answered 5xx: the burst overwhelmed the server instead of being limited`);
    // a local development server without auth is commonly unlimited, and only its user can reach it
    if (loopbackTarget(v) && !authConfigured(v))
      return {
        status: 'not_applicable',
        reason: 'no_population',
        detail: `no 429 in ${sent.length} calls, but this is a loopback server used without credentials (rate limits protect shared, authenticated endpoints)`,
      };
    return fail(`all ${sent.length} calls were served without a 429`);
  },
);
