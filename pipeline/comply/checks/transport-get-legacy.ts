import { HTTP_ONLY, LEGACY_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-get-legacy',
    title: 'GET on the endpoint opens an SSE stream or answers 405',
    category: 'transport',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['get'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#listening-for-messages-from-the-server'),
      requirement: 'Server MUST answer GET on the MCP endpoint by opening an SSE stream (text/event-stream) or with 405 if it offers none.',
    },
    knob: 'get-500',
    fix: 'Answer GET with an SSE stream or 405.',
  },
  (v) => {
    const e = v.x('get');
    if (!e) return { status: 'not_evaluable', reason: 'no_population', detail: 'GET not sent' };
    const st = e.response?.status;
    const ct = (e.response?.headers?.['content-type'] ?? '').toLowerCase();
    if (st === 405) return pass('405');
    if (st !== undefined && st < 300 && ct.startsWith('text/event-stream')) return pass('SSE stream');
    // a session server may refuse a GET without a session: 400/404 are about the session, not GET support
    if (st === 400 || st === 404) return pass(`HTTP ${st} (GET needs a session)`, [`GET answered ${st}`]);
    if (st === 401) return { status: 'not_evaluable', reason: 'auth_gate', detail: 'HTTP 401' };
    return fail(`GET answered ${st ?? e.error?.detail} ${ct}`);
  },
);
