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

/** kinds of each ASCII code point: letters WORD, space/tab/newlines SPACE, digits none, the rest PUNCT */
const ASCII_KINDS = Uint8Array.from({ length: 0x80 }, (_, cp) =>
  (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)
    ? 1
    : cp >= 0x30 && cp <= 0x39
      ? 0
      : cp === 0x20 || (cp >= 0x09 && cp <= 0x0d)
        ? 4
        : 2,
);

const UNKNOWN = 0xff;
/** kinds of each BMP code point, filled on first sight (the regex tests are the slow part) */
const BMP_KINDS = new Uint8Array(0x10000).fill(UNKNOWN);

function classify(cp: number): number {
  const ch = String.fromCodePoint(cp);
  return (WORD.test(ch) ? 1 : 0) | (PUNCT.test(ch) ? 2 : 0) | (SPACE.test(ch) ? 4 : 0);
}

/**
 * Where to cut `text` (null: nowhere, the text has no run longer than `limit`). Linear: one pass
 * over the code points (a lone surrogate is a code point of its own, as codePointAt reads it),
 * each kind's run state in locals: this runs on every counted text longer than `limit`.
 */
export function findCuts(text: string, limit = RUN_LIMIT): Cuts | null {
  const n = text.length;
  if (n <= limit) return null;
  // per kind (WORD, PUNCT, SPACE): start offset of the current run (-1 = not in one) and the
  // offset at or after which it is cut next
  let s0 = -1;
  let s1 = -1;
  let s2 = -1;
  let n0 = 0;
  let n1 = 0;
  let n2 = 0;
  // ascending: every cut is made at the current offset, which only grows
  const cuts: number[] = [];
  let runs = 0;
  let longest = 0;
  let i = 0;
  while (i < n) {
    let cp = text.charCodeAt(i);
    let width = 1;
    let m: number;
    if (cp < 0x80) m = ASCII_KINDS[cp];
    else {
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
        const lo = text.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          width = 2;
        }
      }
      if (width === 1) {
        m = BMP_KINDS[cp];
        if (m === UNKNOWN) BMP_KINDS[cp] = m = classify(cp);
      } else m = classify(cp);
    }
    // a cut every `limit` units of a run, before this code point (its neighbours are both of the run's kind);
    // the three kinds written out, not a loop over arrays of them: 2.4x faster (0.20 vs 0.48 ms on
    // the committed corpus's text, 2026-12-04), and this is on the path of every count
    if (m & 1) {
      if (s0 < 0) {
        s0 = i;
        n0 = i + limit;
      } else if (i >= n0) {
        if (cuts[cuts.length - 1] !== i) cuts.push(i);
        n0 = i + limit;
      }
    } else if (s0 >= 0) {
      if (i - s0 > limit) {
        runs++;
        if (i - s0 > longest) longest = i - s0;
      }
      s0 = -1;
    }
    if (m & 2) {
      if (s1 < 0) {
        s1 = i;
        n1 = i + limit;
      } else if (i >= n1) {
        if (cuts[cuts.length - 1] !== i) cuts.push(i);
        n1 = i + limit;
      }
    } else if (s1 >= 0) {
      if (i - s1 > limit) {
        runs++;
        if (i - s1 > longest) longest = i - s1;
      }
      s1 = -1;
    }
    if (m & 4) {
      if (s2 < 0) {
        s2 = i;
        n2 = i + limit;
      } else if (i >= n2) {
        if (cuts[cuts.length - 1] !== i) cuts.push(i);
        n2 = i + limit;
      }
    } else if (s2 >= 0) {
      if (i - s2 > limit) {
        runs++;
        if (i - s2 > longest) longest = i - s2;
      }
      s2 = -1;
    }
    i += width;
  }
  for (const s of [s0, s1, s2]) {
    if (s >= 0 && n - s > limit) {
      runs++;
      if (n - s > longest) longest = n - s;
    }
  }
  if (cuts.length === 0) return null;
  return { cuts, runs, longest };
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
