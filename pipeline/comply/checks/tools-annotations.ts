import { ANY_WIRE, BOTH_ERAS, defineCheck, isObj, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

export default defineCheck(
  {
    id: 'tools-annotations',
    title: 'Tool annotations have the schema types (hints boolean, title string)',
    category: 'schema',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#tool'),
      requirement:
        "Server sends tool annotations with the schema's types: the four *Hint flags as booleans, title as a string (no normative keyword; inferred).",
    },
    knob: 'annotation-string',
    fix: 'Use booleans for the *Hint annotations and a string title.',
  },
  (v) => {
    const bad: string[] = [];
    for (const t of v.list('tools-list', 'tools')) {
      if (t.annotations === undefined) continue;
      if (!isObj(t.annotations)) {
        bad.push(`${String(t.name)}: annotations is not an object`);
        continue;
      }
      for (const h of HINTS)
        if (h in t.annotations && typeof t.annotations[h] !== 'boolean')
          bad.push(`${String(t.name)}.${h} = ${JSON.stringify(t.annotations[h])}`);
      if ('title' in t.annotations && typeof t.annotations.title !== 'string') bad.push(`${String(t.name)}.title not a string`);
    }
    return problems(bad, 'annotations well-typed');
  },
);
