import { ANY_WIRE, MODERN_ONLY, defineCheck, problems, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

/** the only requests a server may answer with input_required */
const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

export default defineCheck(
  {
    id: 'schema-no-input-required-on-lists',
    title: 'input_required appears only on tools/call, prompts/get and resources/read',
    category: 'schema',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: {
      url: specUrl(MODERN, 'basic/patterns/mrtr#supported-requests'),
      requirement:
        'Server uses input_required only on tools/call, prompts/get and resources/read (where it MAY); any other request gets a complete result or an error.',
    },
    knob: 'list-input-required',
    fix: 'Answer list, discover and completion requests with a complete result (or an error); ask for input only from tools/call, prompts/get or resources/read.',
  },
  (v) => {
    const all = v.results();
    const bad = all
      .filter(({ result, method }) => result.resultType === 'input_required' && !(method && MRTR_METHODS.has(method)))
      .map(({ ex, method }) => `${method ?? ex.probe} answered input_required`);
    return problems(bad, `${all.length} results: input_required only where allowed`);
  },
);
