import { ANY_WIRE, BOTH_ERAS, defineCheck, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

/** words that turn a mention into an instruction about when or whether to run the other tool */
const DIRECTIVE =
  /\b(before|after|always|whenever|first|must|also (?:call|use|run|invoke)|instead of this|do not use|never use|in addition)\b/i;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A mention of another tool: a name with _ - . or a digit anywhere, or a plain word in code-like
 * context (backticks, quotes, a call, "the X tool").
 */
function mentions(desc: string, name: string): boolean {
  const n = esc(name);
  if (/[_\-.\d]/.test(name)) return new RegExp(`(^|[^\\w-])${n}($|[^\\w-])`).test(desc);
  return new RegExp(`[\`'"]${n}[\`'"]|\\b${n}\\(|\\bthe ${n} tool\\b`, 'i').test(desc);
}

export default defineCheck(
  {
    id: 'security-tool-cross-reference',
    title: 'No tool description instructs the model about another tool (shadowing)',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#security-considerations'),
      requirement:
        "Best practice: server's tool descriptions do not tell the model to call another tool before or after; that chains tools behind the user's back (clients SHOULD distrust tool metadata anyway).",
    },
    knob: 'cross-reference',
    fix: 'Describe only this tool; leave ordering between tools to the client and the user.',
  },
  (v) => {
    const tools = v.list('tools-list', 'tools').filter((t) => typeof t.name === 'string');
    const bad: string[] = [];
    for (const t of tools) {
      const desc = typeof t.description === 'string' ? t.description : '';
      for (const sentence of desc.split(/(?<=[.!?])\s+|\n+/)) {
        if (!DIRECTIVE.test(sentence)) continue;
        const other = tools.find((o) => o.name !== t.name && mentions(sentence, o.name as string));
        if (other) bad.push(`${String(t.name)}: "${sentence.trim().slice(0, 100)}" (names ${String(other.name)})`);
      }
    }
    return problems(bad, `${tools.length} descriptions name no other tool in an instruction`);
  },
);
