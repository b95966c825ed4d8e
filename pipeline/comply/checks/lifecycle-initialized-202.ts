import { HTTP_ONLY, LEGACY_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-initialized-202',
    title: 'notifications/initialized is accepted: HTTP 202 with no body',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['lifecycle-handshake', 'transport-post'],
    probes: ['initialized'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#sending-messages-to-the-server'),
      requirement: "Server MUST take the client's notifications/initialized over HTTP with status 202 and an empty body.",
    },
    knob: 'initialized-400',
    fix: 'Accept notifications/initialized (202, empty body); it is the step that ends every legacy handshake.',
  },
  (v) => {
    const gate = v.unusable('initialized');
    if (gate) return gate;
    const e = v.x('initialized')!;
    const st = e.response?.status;
    if (st === 202) return e.response!.bodyBytes === 0 ? pass('202, empty body') : fail(`202 with a ${e.response!.bodyBytes}-byte body`);
    return fail(`notifications/initialized answered HTTP ${st ?? `nothing (${e.error?.detail})`}: the handshake's last step was refused`);
  },
);
