import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, isObj, na, pass, specUrl } from '../judge/check.ts';
import { UNICODE_PAYLOAD } from '../gather/probes/transport.ts';
import { LEGACY } from '../types.ts';

/** what UTF-8 bytes look like after a Latin-1 (or cp1252) decode: "æ¼¢", "ðŸ™‚", "Ã©" */
const MOJIBAKE = /[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u203a\u20ac\u2122]/;

/** every string in a value, depth-first */
function strings(x: unknown, out: string[] = []): string[] {
  if (typeof x === 'string') out.push(x);
  else if (Array.isArray(x)) for (const y of x) strings(y, out);
  else if (isObj(x)) for (const y of Object.values(x)) strings(y, out);
  return out;
}

export default defineCheck(
  {
    id: 'transport-unicode-roundtrip',
    title: 'Non-ASCII text (CJK, emoji) comes back byte-exact',
    category: 'transport',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['unicode-echo'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports'),
      requirement: 'Server MUST encode its messages as UTF-8, so non-ASCII text (CJK, emoji) comes back byte for byte.',
    },
    knob: 'mojibake-output',
    fix: 'Read and write the transport as UTF-8 end to end (no Latin-1 decode, no lossy re-encoding of strings).',
  },
  (v) => {
    const gate = v.unusable('unicode-echo');
    if (gate) return gate;
    const e = v.x('unicode-echo')!;
    if (e.error?.kind === 'died') return fail(`the server died on a request carrying non-ASCII text: ${e.error.detail}`);
    const reply = v.reply('unicode-echo');
    if (!reply) return fail(`no answer to a request carrying non-ASCII text${e.error ? ` (${e.error.detail})` : ''}`);
    const text = strings(reply.result ?? reply.error);
    if (text.some((s) => s.includes(UNICODE_PAYLOAD))) return pass('the payload came back byte-exact');
    const bad = text.find((s) => s.includes('\ufffd') || MOJIBAKE.test(s));
    if (bad) return fail(`the payload came back mangled: ${JSON.stringify(bad.slice(0, 80))}`);
    return na(
      'the answer does not quote the payload (no echo tool, and the error does not name the tool), so the round trip cannot be judged',
    );
  },
);
