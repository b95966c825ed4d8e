import { ANY_WIRE, BOTH_ERAS, defineCheck, isObj, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'prompts-schema',
    title: 'Every prompt has a string name; every argument has a name',
    category: 'schema',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'prompts',
    prerequisites: ['lifecycle-handshake', 'prompts-list'],
    probes: ['prompts-list'],
    spec: {
      url: specUrl(LEGACY, 'server/prompts#prompt'),
      requirement: 'Server gives every prompt a name, and every prompt argument, if any, a name too (both required by the schema).',
    },
    knob: 'prompt-arg-no-name',
    fix: 'Name every prompt and every prompt argument.',
  },
  (v) => {
    const bad: string[] = [];
    for (const p of v.list('prompts-list', 'prompts')) {
      if (typeof p.name !== 'string') bad.push(`prompt without a name: ${JSON.stringify(p).slice(0, 60)}`);
      if (p.arguments !== undefined && (!Array.isArray(p.arguments) || p.arguments.some((a) => !isObj(a) || typeof a.name !== 'string')))
        bad.push(`${String(p.name)}: an argument has no name`);
    }
    return problems(bad, 'prompts well-formed');
  },
);
