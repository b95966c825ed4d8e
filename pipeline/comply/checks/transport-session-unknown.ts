import { HTTP_ONLY, LEGACY_ONLY, defineCheck, fail, na, pass, specUrl } from '../judge/check.ts';
import { FABRICATED_SESSION } from '../gather/probes/transport.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-session-unknown',
    title: 'A session id the server never issued is answered 404',
    category: 'transport',
    severity: 'SHOULD',
    revisions: LEGACY_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'lifecycle-handshake'],
    probes: ['session-unknown', 'twin'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#session-management'),
      requirement:
        'Server SHOULD answer 404 to a session id it never issued, as it MUST for an ended one: 404 is what makes a client start over (the spec names no status for unknown ids, so a 400 passes with a warning).',
    },
    knob: 'session-unknown-served',
    fix: 'Answer a request whose Mcp-Session-Id names no live session with 404, so the client starts a new session.',
  },
  (v) => {
    if (!v.ev.sessionId) return na('the server issued no session id (a stateless server: legal)');
    const gate = v.unusable('session-unknown');
    if (gate) return gate;
    if (!v.twinServed('twin'))
      return {
        status: 'not_evaluable',
        reason: 'twin_failed',
        detail: 'the same request with the issued session id was not served either',
      };
    const st = v.status('session-unknown');
    if (st === 404) return pass(`HTTP 404 for session ${FABRICATED_SESSION}`);
    if (v.result('session-unknown')) return fail(`a request under the never-issued session ${FABRICATED_SESSION} was served (HTTP ${st})`);
    if (st === 400) return pass('HTTP 400', ['an unknown session id answered 400: clients re-initialize on 404 only']);
    return fail(`HTTP ${st ?? v.x('session-unknown')?.error?.detail}, expected 404`);
  },
);
