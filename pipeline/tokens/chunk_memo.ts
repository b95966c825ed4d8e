/**
 * Exact token counting with a memo of text chunks, used by the offline stage on both threads.
 *
 * tiktoken (`encode_ordinary`) splits a text with its pre-tokenizer regex and encodes each piece
 * with BPE on its own, so count(A + B) = count(A) + count(B) whenever no regex piece crosses the
 * A|B boundary. For the cl100k_base and o200k_base patterns that holds when A ends with "\n" and
 * B starts with a run of spaces/tabs (possibly empty) followed by a printable ASCII character
 * other than "/":
 *  - the only alternatives that can contain "\n" are ` ?[^\s\p{L}\p{N}]+[\r\n]*` (o200k:
 *    `[\r\n/]*`), which can only continue past the newlines with more newlines (or "/"), and
 *    `\s*[\r\n]+`, which ends at the last newline of its whitespace run: the boundary's, since
 *    B's leading run has none. `\s+(?!\S)` and `\s+` are tried only where `\s*[\r\n]+` fails,
 *    i.e. never in a whitespace run that reaches the boundary newline;
 *  - the letter alternatives exclude "\r\n" from their optional prefix, digits and contractions
 *    contain no whitespace, and no alternative looks behind, so B splits the same on its own.
 * A text is cut at every such boundary and each chunk's count is memoised: a line seen before
 * (a tool's text inside the listing, or inside a simulated response) is not tokenized again.
 * Texts without a boundary are counted whole. The memo is bounded (MEMO_MAX_CHARS) and reset
 * by the caller between unrelated texts (the offline stage: per arm). test/tokens/chunk_memo.test.ts checks the identity
 * against the plain tokenizer on real renderings and on edge cases.
 */
import { TOKENIZER_NAMES } from '../constants.ts';
import type { Tokenizer, TokenizerName } from './tokenizer.ts';

export interface ChunkCounter {
  readonly name: TokenizerName;
  count(text: string): number;
  /**
   * forget the memo (its keys are slices that keep their source texts alive, so the caller
   * resets it when it moves on to unrelated texts)
   */
  reset(): void;
  /** chunks tokenized / chunks answered from the memo (for diagnostics) */
  readonly stats: { tokenized: number; memo: number; memoChars: number };
}

/** the memo is dropped when its keys reach this many UTF-16 units (bounded memory) */
export const MEMO_MAX_CHARS = 64 * 1024 * 1024;

const SPACE = 0x20;
const TAB = 0x09;
const SLASH = 0x2f;

function printable(c: number): boolean {
  return c >= 0x21 && c <= 0x7e && c !== SLASH;
}

/** Is `b` (just after a "\n") a boundary where the count splits exactly? */
function safeBoundary(text: string, b: number): boolean {
  let j = b;
  let c = text.charCodeAt(j);
  while (c === SPACE || c === TAB) c = text.charCodeAt(++j);
  return printable(c); // NaN past the end -> false
}

/** the encodings whose pre-tokenizer patterns the boundary rule above was checked against */
const CHECKED: ReadonlySet<string> = new Set(TOKENIZER_NAMES);

export function createChunkCounter(tk: Tokenizer, maxChars = MEMO_MAX_CHARS): ChunkCounter {
  // another encoding would need its own check of the rule: count it whole
  if (!CHECKED.has(tk.name)) maxChars = -1;
  let memo = new Map<string, number>();
  const stats = { tokenized: 0, memo: 0, memoChars: 0 };
  const chunk = (s: string): number => {
    const hit = memo.get(s);
    if (hit !== undefined) {
      stats.memo++;
      return hit;
    }
    const n = tk.count(s);
    stats.tokenized++;
    if (stats.memoChars + s.length > maxChars) {
      memo = new Map();
      stats.memoChars = 0;
    }
    memo.set(s, n);
    stats.memoChars += s.length;
    return n;
  };
  return {
    name: tk.name,
    stats,
    reset() {
      memo = new Map();
      stats.memoChars = 0;
    },
    count(text: string): number {
      if (maxChars < 0) return tk.count(text);
      let total = 0;
      let start = 0;
      let nl = text.indexOf('\n');
      while (nl !== -1) {
        const b = nl + 1;
        if (safeBoundary(text, b)) {
          total += chunk(text.slice(start, b));
          start = b;
        }
        nl = text.indexOf('\n', b);
      }
      if (start < text.length) total += start === 0 ? chunk(text) : chunk(text.slice(start));
      return total;
    },
  };
}
