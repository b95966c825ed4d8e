import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

const MAX_VALUES = 100;

export default defineCheck(
  {
    id: 'lifecycle-completions',
    title: 'completion/complete answers a completion with a values array of at most 100 strings',
    category: 'lifecycle',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'completions',
    probes: ['completion'],
    spec: {
      url: specUrl(LEGACY, 'server/utilities/completion#requesting-completions'),
      requirement:
        'Server answers completion/complete with completion.values, a list of at most 100 strings (total and hasMore optional), and MUST declare the completions capability to offer it; shape from the schema (inferred).',
    },
    knob: 'completion-values-not-array',
    fix: 'Return {"completion": {"values": [...strings, at most 100], "total"?: n, "hasMore"?: bool}} (an empty values array is fine).',
  },
  (v) => {
    if (!v.x('completion'))
      return {
        status: 'not_evaluable',
        reason: 'no_population',
        detail: 'completions are declared but there is no prompt argument or template variable to complete',
      };
    const gate = v.unusable('completion');
    if (gate) return gate;
    const err = v.error('completion');
    if (err?.code === INVALID_PARAMS)
      return pass('-32602 for the first prompt argument / template variable (allowed: nothing to complete there)');
    const r = v.served('completion', 'completion/complete');
    if (!('ok' in r)) return r;
    const c = r.ok.completion;
    if (!isObj(c)) return fail(`completion is ${JSON.stringify(c)?.slice(0, 60)}, not an object`);
    if (!Array.isArray(c.values)) return fail(`completion.values is ${JSON.stringify(c.values)?.slice(0, 60)}, not an array`);
    if (!c.values.every((x) => typeof x === 'string')) return fail('completion.values holds non-strings');
    if (c.values.length > MAX_VALUES) return fail(`completion.values has ${c.values.length} items (at most ${MAX_VALUES})`);
    if (c.total !== undefined && typeof c.total !== 'number') return fail(`completion.total is ${JSON.stringify(c.total)}, not a number`);
    if (c.hasMore !== undefined && typeof c.hasMore !== 'boolean')
      return fail(`completion.hasMore is ${JSON.stringify(c.hasMore)}, not a boolean`);
    return pass(`${c.values.length} value(s)`);
  },
);
