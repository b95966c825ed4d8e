import { ANY_WIRE, LEGACY_ONLY, defineCheck, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-ping',
    title: 'ping is answered with an empty result',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: ANY_WIRE,
    probes: ['ping'],
    spec: { url: specUrl(LEGACY, 'basic/utilities/ping'), requirement: 'Server MUST answer ping quickly, with an empty result.' },
    knob: 'ping-error',
    fix: 'Answer ping with {"result": {}}.',
  },
  (v) => {
    const r = v.served('ping', 'ping');
    return 'ok' in r ? pass('ping answered') : r;
  },
);
