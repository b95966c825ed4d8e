import { HTTP_ONLY, LEGACY_ONLY, defineCheck, fail, na, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-session-delete',
    title: 'DELETE ends the session (or answers 405); an ended session answers 404',
    category: 'transport',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'lifecycle-handshake'],
    probes: ['session-delete', 'session-after-delete'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#session-management'),
      requirement:
        'Server ends a session on DELETE (or MAY refuse with 405 when clients cannot end sessions), and MUST answer 404 to any later request carrying the ended session id.',
    },
    knob: 'session-delete-keeps',
    fix: 'On DELETE with a live Mcp-Session-Id, drop the session and answer 2xx (or answer 405); afterwards answer that id with 404.',
  },
  (v) => {
    if (!v.ev.sessionId) return na('the server issued no session id (a stateless server: legal)');
    const gate = v.unusable('session-delete');
    if (gate) return gate;
    const st = v.status('session-delete');
    if (st === 405) return pass('405: the server does not let clients end sessions');
    if (st === undefined || st < 200 || st >= 300)
      return fail(`DELETE with the session id answered ${st ?? v.x('session-delete')?.error?.detail}, expected 2xx or 405`);
    const after = v.unusable('session-after-delete');
    if (after) return after;
    const st2 = v.status('session-after-delete');
    if (st2 === 404) return pass(`DELETE ${st}, then 404 for the ended session`);
    if (v.result('session-after-delete')) return fail(`DELETE answered ${st}, yet the session still serves requests (HTTP ${st2})`);
    return fail(
      `DELETE answered ${st}; the ended session then answered HTTP ${st2 ?? v.x('session-after-delete')?.error?.detail}, expected 404`,
    );
  },
);
