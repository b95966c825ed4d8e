import { ANY_WIRE, BOTH_ERAS, defineCheck, isObj, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

/** capability -> its boolean sub-flags (schema) */
const FLAGS: Record<string, readonly string[]> = {
  tools: ['listChanged'],
  prompts: ['listChanged'],
  resources: ['listChanged', 'subscribe'],
};

export default defineCheck(
  {
    id: 'lifecycle-capability-flags',
    title: 'Capability flags (listChanged, subscribe) are booleans',
    category: 'lifecycle',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic/lifecycle#capability-negotiation'),
      requirement:
        'Server gives its listChanged and subscribe capability flags, when present, as booleans; the type comes from the schema, no normative keyword (inferred).',
    },
    knob: 'capability-flag-string',
    fix: 'Write the sub-capabilities as true/false, e.g. "tools": {"listChanged": true}.',
  },
  (v) => {
    const caps = v.caps();
    const bad: string[] = [];
    let n = 0;
    for (const [cap, flags] of Object.entries(FLAGS)) {
      const c = caps[cap];
      if (!isObj(c)) continue;
      for (const f of flags) {
        if (!(f in c)) continue;
        n++;
        if (typeof c[f] !== 'boolean') bad.push(`${cap}.${f} is ${JSON.stringify(c[f])}, not a boolean`);
      }
    }
    return problems(bad, n ? `${n} flag(s) are booleans` : 'no listChanged/subscribe flags declared');
  },
);
