import { ANY_WIRE, LEGACY_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-set-level',
    title: 'logging/setLevel is served when logging is declared',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: ANY_WIRE,
    capability: 'logging',
    probes: ['set-level'],
    spec: {
      url: specUrl(LEGACY, 'server/utilities/logging#setting-log-level'),
      requirement:
        'Server that declares logging serves logging/setLevel with an empty result (clients MAY send it to pick the lowest level they get); a server that logs MUST declare logging.',
    },
    knob: 'setlevel-error',
    fix: 'Answer logging/setLevel {level} with {} and apply the level to later log messages.',
  },
  (v) => {
    const r = v.served('set-level', 'logging/setLevel {level: "debug"}');
    if (!('ok' in r)) return r;
    const extra = Object.keys(r.ok).filter((k) => k !== '_meta');
    return extra.length ? fail(`setLevel result has ${extra.join(', ')} (an empty result expected)`) : pass('setLevel served');
  },
);
