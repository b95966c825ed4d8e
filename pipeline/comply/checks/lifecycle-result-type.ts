import { ANY_WIRE, MODERN_ONLY, defineCheck, pass, problems, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-result-type',
    title: 'Every result carries resultType "complete" or "input_required"',
    category: 'schema',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: {
      url: specUrl(MODERN, 'basic/index#result-responses'),
      requirement:
        'Server MUST mark every result with resultType: "complete" when it is final, "input_required" when it waits for the client.',
    },
    knob: 'no-result-type',
    fix: 'Add resultType: "complete" to every result.',
  },
  (v) => {
    const all = v.results();
    const bad = all
      .filter(({ result }) => result.resultType !== 'complete' && result.resultType !== 'input_required')
      .map(({ ex, result, method }) => `${method ?? ex.probe}: resultType ${JSON.stringify(result.resultType)}`);
    return all.length ? problems(bad, `${all.length} results carry resultType`) : pass('no results to inspect');
  },
);
