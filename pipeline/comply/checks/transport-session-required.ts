import { HTTP_ONLY, LEGACY_ONLY, defineCheck, fail, na, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-session-required',
    title: 'A session server answers 400 to a request without Mcp-Session-Id',
    category: 'transport',
    severity: 'SHOULD',
    revisions: LEGACY_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'lifecycle-handshake'],
    probes: ['session-missing', 'twin'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#session-management'),
      requirement: 'Server that uses sessions SHOULD answer 400 to a request after initialize that carries no Mcp-Session-Id.',
    },
    knob: 'session-optional',
    fix: 'Once a session id was issued, answer a request that omits Mcp-Session-Id with 400 instead of serving it outside the session.',
  },
  (v) => {
    if (!v.ev.sessionId) return na('the server issued no session id (a stateless server: legal)');
    const gate = v.unusable('session-missing');
    if (gate) return gate;
    if (!v.twinServed('twin'))
      return { status: 'not_evaluable', reason: 'twin_failed', detail: 'the same request with the session id was not served either' };
    const st = v.status('session-missing');
    if (st === 400) return pass('HTTP 400 without the session id; the twin with it was served');
    if (v.result('session-missing')) return fail(`served without the session id (HTTP ${st}): the session is not enforced`);
    return fail(`HTTP ${st ?? v.x('session-missing')?.error?.detail}, expected 400`);
  },
);
