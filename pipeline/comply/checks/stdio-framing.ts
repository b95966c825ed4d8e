import { BOTH_ERAS, NOTHING_HEARD, STDIO_ONLY, defineCheck, fail, heardNothing, na, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

/** A stdout line that is a piece of a JSON message (pretty-printed or split), not prose. */
export function isFragment(line: string): boolean {
  const t = line.trim();
  return /^([{}[\]"]|-?\d|true\b|false\b|null\b)/.test(t) || /[,{[]$/.test(t);
}

export default defineCheck(
  {
    id: 'stdio-framing',
    title: 'One JSON-RPC message per line, no embedded newlines',
    category: 'transport',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: STDIO_ONLY,
    prerequisites: [],
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#stdio'),
      requirement: 'Server MUST write each message on one line of its own: a newline ends it and none appears inside it.',
    },
    knob: 'stdio-pretty',
    fix: 'Serialize each message on one line (no pretty-printing) followed by \\n.',
  },
  (v) => {
    if (heardNothing(v.ev)) return na(NOTHING_HEARD);
    const frags = v.ev.noise.filter(isFragment);
    if (frags.length) return fail(`stdout carried pieces of multi-line messages, e.g. ${JSON.stringify(frags[0])}`);
    const timedOut = v.ev.exchanges.filter((e) => e.error?.kind === 'timeout').length;
    return pass(`every message on its own line${timedOut ? ` (${timedOut} requests unanswered, judged elsewhere)` : ''}`);
  },
);
