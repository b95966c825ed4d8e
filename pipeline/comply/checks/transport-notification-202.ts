import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-notification-202',
    title: 'An accepted notification POST gets 202 with no body',
    category: 'transport',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['notification'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#sending-messages'),
      requirement: 'Server MUST answer a POSTed notification it accepts with 202 and an empty body.',
    },
    knob: 'notification-200',
    fix: 'Answer notification POSTs with 202 and an empty body (or a 4xx if not accepted).',
  },
  (v) => {
    const gate = v.unusable('notification');
    if (gate) return gate;
    const e = v.x('notification')!;
    const st = e.response?.status;
    if (st === 202) return e.response!.bodyBytes === 0 ? pass('202, empty body') : fail(`202 with a ${e.response!.bodyBytes}-byte body`);
    if (st !== undefined && st >= 400 && st < 500) return pass(`not accepted: HTTP ${st}`, [`notification refused with HTTP ${st}`]);
    return fail(`notification answered HTTP ${st ?? `nothing (${e.error?.detail})`}`);
  },
);
