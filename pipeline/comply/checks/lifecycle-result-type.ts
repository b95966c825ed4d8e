import { ANY_WIRE, MODERN_ONLY, defineCheck, isObj, pass, problems, specUrl } from '../check.ts';
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
    spec: { url: specUrl(MODERN, 'basic/index#result-responses'), sentence: 'Every result MUST include a resultType: "complete" for a final result or "input_required" for an interim result.' },
    knob: 'no-result-type',
    fix: 'Add resultType: "complete" to every result.',
  },
  (v) => {
    const bad: string[] = [];
    let n = 0;
    for (const { ex, msg } of v.responses()) {
      if (!isObj(msg.result)) continue;
      n++;
      const rt = msg.result.resultType;
      if (rt !== 'complete' && rt !== 'input_required') bad.push(`${v.requestMethod(ex) ?? ex.probe}: resultType ${JSON.stringify(rt)}`);
    }
    return n ? problems(bad, `${n} results carry resultType`) : pass('no results to inspect');
  },
);
