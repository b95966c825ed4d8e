import { ANY_WIRE, BOTH_ERAS, defineCheck, isObj, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

const KNOWN = ['tools', 'resources', 'prompts', 'completions', 'logging', 'experimental', 'extensions', 'tasks'];

export default defineCheck(
  {
    id: 'lifecycle-capabilities-shape',
    title: 'Each declared server capability is an object',
    category: 'lifecycle',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic/lifecycle#capability-negotiation'),
      requirement:
        'Server sends each capability it declares (tools, resources, prompts, logging, completions) as a JSON object; the type comes from the schema, no normative keyword (inferred).',
    },
    knob: 'boolean-capability',
    fix: 'Declare capabilities as objects, e.g. "tools": {} rather than "tools": true.',
  },
  (v) => {
    const caps = v.caps();
    const bad = KNOWN.filter((k) => k in caps && !isObj(caps[k])).map(
      (k) => `capability ${k} is ${JSON.stringify(caps[k])}, not an object`,
    );
    return problems(bad, `declared: ${Object.keys(caps).join(', ') || '(none)'}`);
  },
);
