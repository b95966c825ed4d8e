/**
 * Bounded tokenizing: where a text is cut before BPE so that no pre-token is longer than
 * RUN_LIMIT characters.
 *
 * tiktoken encodes each pre-token (a piece of its pre-tokenizer regex) with BPE, which is
 * quadratic in the pre-token's length (a 100 KB run of letters takes minutes) and fails outright
 * ("unreachable") near 1 MB. Every pre-token of cl100k_base and o200k_base longer than a few
 * characters lies inside a run of one of three character kinds:
 *  - WORD  = \p{L} or \p{M} (the letter alternatives of both encodings; o200k adds marks);
 *  - PUNCT = not \s, \p{L} or \p{N} (the punctuation alternative; it holds cl100k's marks);
 *  - SPACE = \s (the whitespace alternatives);
 * (digits come in pieces of at most 3, contractions are short, a pre-token adds at most one
 * leading character and a newline run to its run). So cutting every run longer than RUN_LIMIT
 * into RUN_LIMIT-character pieces bounds every pre-token to about 2 * RUN_LIMIT characters and
 * the work to O(length * RUN_LIMIT). A cut lies strictly inside a run, so it changes only the
 * pre-tokens of that run: everything outside it is counted exactly, and a text with no run
 * longer than RUN_LIMIT is not cut at all (its count is exactly tiktoken's).
 *
 * The count of a cut run is the sum of its pieces' counts: tokens never cross a cut. It is an
 * estimate within one token per cut of the exact count (test/tokens/bound.test.ts measures it
 * against exact counts on runs of letters, words, punctuation, whitespace, CJK and marks: per cut
 * between -0.1 and +1.0 tokens, so usually above, but not provably: BPE is not monotone under
 * cuts). The report says where it applied and how many cuts (pipeline/bench/token-bounds.ts).
 */

/** runs longer than this many UTF-16 units are cut into pieces of this length */
export const RUN_LIMIT = 1024;
/** a cut text's count is within this many tokens per cut of the exact count (measured) */
export const MAX_ERROR_PER_CUT = 1;

const WORD = /[\p{L}\p{M}]/u;
const PUNCT = /[^\s\p{L}\p{N}]/u;
const SPACE = /\s/u;

export interface Cuts {
  /** cut offsets (UTF-16 units, ascending, each strictly inside the text and on a code-point boundary) */
  cuts: number[];
  /** runs longer than RUN_LIMIT that were cut */
  runs: number;
  /** the longest such run, in UTF-16 units */
  longest: number;
}

function kinds(cp: number): number {
  // ASCII fast path: letters are WORD, space/tab/newlines are SPACE, digits none, the rest PUNCT
  if (cp < 0x80) {
    if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return 1;
    if (cp >= 0x30 && cp <= 0x39) return 0;
    if (cp === 0x20 || (cp >= 0x09 && cp <= 0x0d)) return 4;
    return 2;
  }
  if (cp <= 0xffff) {
    let k = BMP_KINDS[cp];
    if (k === UNKNOWN) BMP_KINDS[cp] = k = classify(cp);
    return k;
  }
  return classify(cp);
}

const UNKNOWN = 0xff;
/** kinds of each BMP code point, filled on first sight (the regex tests are the slow part) */
const BMP_KINDS = new Uint8Array(0x10000).fill(UNKNOWN);

function classify(cp: number): number {
  const ch = String.fromCodePoint(cp);
  return (WORD.test(ch) ? 1 : 0) | (PUNCT.test(ch) ? 2 : 0) | (SPACE.test(ch) ? 4 : 0);
}

/**
 * Where to cut `text` (null: nowhere, the text has no run longer than `limit`). Linear: one pass
 * over the code points.
 */
export function findCuts(text: string, limit = RUN_LIMIT): Cuts | null {
  if (text.length <= limit) return null;
  // start offset of the current run of each kind (bit 1, 2, 4), -1 = not in such a run
  const start = [-1, -1, -1];
  // the offset at or after which the current run of each kind is cut next
  const next = [0, 0, 0];
  const cutSet = new Set<number>();
  let runs = 0;
  let longest = 0;
  const close = (k: number, end: number) => {
    const s = start[k];
    start[k] = -1;
    if (s < 0 || end - s <= limit) return;
    runs++;
    if (end - s > longest) longest = end - s;
  };
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    const m = kinds(cp);
    for (let k = 0; k < 3; k++) {
      if (m & (1 << k)) {
        if (start[k] < 0) {
          start[k] = i;
          next[k] = i + limit;
        } else if (i >= next[k]) {
          // a cut every `limit` units of the run, before this code point (its neighbours are both of kind k)
          cutSet.add(i);
          next[k] = i + limit;
        }
      } else if (start[k] >= 0) close(k, i);
    }
    i += cp > 0xffff ? 2 : 1;
  }
  for (let k = 0; k < 3; k++) close(k, text.length);
  if (cutSet.size === 0) return null;
  return { cuts: [...cutSet].sort((a, b) => a - b), runs, longest };
}

/** `text` split at `cuts` (their concatenation is `text`) */
export function pieces(text: string, cuts: readonly number[]): string[] {
  const out: string[] = [];
  let prev = 0;
  for (const c of cuts) {
    out.push(text.slice(prev, c));
    prev = c;
  }
  out.push(text.slice(prev));
  return out;
}
