import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { EVIL_ORIGIN } from '../gather/probes/transport.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-origin',
    title: 'A request with a foreign Origin is refused with 403 (DNS rebinding)',
    category: 'transport',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['origin-evil', 'twin'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#security--endpoint'),
      requirement:
        'Server MUST check the Origin header of every request and refuse an origin it does not trust with 403, so a web page cannot reach it through DNS rebinding.',
    },
    knob: 'no-origin-check',
    fix: 'Validate Origin against an allow-list and answer 403 for anything else.',
  },
  (v) => {
    const gate = v.unusable('origin-evil');
    if (gate) return gate;
    if (!v.twinServed('twin'))
      return { status: 'not_evaluable', reason: 'twin_failed', detail: 'the same request without Origin was not served either' };
    const st = v.status('origin-evil');
    if (st === 403) return pass('403 for a foreign Origin');
    return fail(
      `Origin ${EVIL_ORIGIN} answered HTTP ${st ?? v.x('origin-evil')?.error?.detail}${v.result('origin-evil') ? ' and was served' : ''}`,
    );
  },
);
