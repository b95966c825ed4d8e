import { HTTP_ONLY, MODERN_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-get-removed',
    title: 'GET on the endpoint answers 405 (no standalone stream in 2026-07-28)',
    category: 'transport',
    severity: 'SHOULD',
    revisions: MODERN_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['get'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#earlier-streamable-http-revisions'),
      requirement: 'Server SHOULD answer GET on the MCP endpoint with 405: 2026-07-28 has no standalone stream.',
    },
    knob: 'get-500',
    fix: 'Answer GET with 405 (Allow: POST).',
  },
  (v) => {
    const st = v.status('get');
    if (st === 405) return pass('405');
    if (st === 401) return { status: 'not_evaluable', reason: 'auth_gate', detail: 'HTTP 401' };
    if (st !== undefined && st >= 400 && st < 500) return pass(`HTTP ${st}`, [`GET answered ${st}, 405 expected`]);
    return fail(`GET answered ${st ?? v.x('get')?.error?.detail}`);
  },
);
