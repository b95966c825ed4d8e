import { HTTP_ONLY, MODERN_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-delete-removed',
    title: 'DELETE on the endpoint answers 405 (no sessions in 2026-07-28)',
    category: 'transport',
    severity: 'SHOULD',
    revisions: MODERN_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['delete'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#earlier-streamable-http-revisions'),
      requirement: 'Server SHOULD answer DELETE on the MCP endpoint with 405: 2026-07-28 has no sessions to end.',
    },
    knob: 'delete-ok',
    fix: 'Answer DELETE with 405.',
  },
  (v) => {
    const st = v.status('delete');
    if (st === 405) return pass('405');
    if (st === 401) return { status: 'not_evaluable', reason: 'auth_gate', detail: 'HTTP 401' };
    if (st !== undefined && st >= 400 && st < 500) return pass(`HTTP ${st}`, [`DELETE answered ${st}, 405 expected`]);
    return fail(`DELETE answered ${st ?? v.x('delete')?.error?.detail}`);
  },
);
