/**
 * Token counting with OpenAI's cl100k_base and o200k_base encodings. Every count names its tokenizer.
 * One engine: bpe.ts, byte-pair encoding over gpt-tokenizer's rank table of each encoding kept as
 * flat binary arrays (ranks.ts; ~10 ms to load, where gpt-tokenizer's own encoder takes ~50 ms to
 * build its Map) and the package's pre-tokenizer regex. tiktoken is the oracle it is held to:
 * test/tokens/engines.test.ts compares the ids on every string of datasets/, hostile text and
 * random text, in both encodings.
 *
 * - `count(text)`: number of tokens; special-token text such as `<|endoftext|>` is encoded as
 *   ordinary text (never an error, never a single special token).
 * - `countSpans(text, spans)`: tokenize once, attribute each token to the labelled UTF-8 byte
 *   span that owns the token's first byte, so the parts add up exactly to the total.
 * Both are bounded in time and memory: a run longer than RUN_LIMIT characters is cut first
 * (bound.ts; the count of that run is then within one token per cut of the exact count,
 * everything else is exact).
 */
import { UserError } from '../types.ts';

import { TOKENIZER_NAMES, type TokenizerName } from '../constants.ts';
import { findCuts, pieces, RUN_LIMIT } from './bound.ts';
import { BpeEncoder } from './bpe.ts';
import { loadRankTable, splitRegex } from './ranks.ts';

export { TOKENIZER_NAMES, type TokenizerName };

/** A labelled range of UTF-8 byte offsets [start, end) of one text. */
export interface Span {
  label: string;
  start: number;
  end: number;
}

export interface SpanCount {
  total: number;
  /** tokens per label; labels that own no token are present with 0; the values sum to `total` */
  byLabel: Record<string, number>;
}

export interface Tokenizer {
  readonly name: TokenizerName;
  count(text: string): number;
  countSpans(text: string, spans: readonly Span[]): SpanCount;
}

export const TOKENIZER_CAVEAT =
  'Token counts are estimates from OpenAI tiktoken encodings (cl100k_base, o200k_base), chosen because they are ' +
  'public, offline and reproducible. Other vendors tokenize differently (Claude, Gemini and Llama counts for the ' +
  'same text can differ substantially), so treat absolute numbers as approximate; the relative comparisons between ' +
  'arms and modes are what to trust, and the report shows whether the arm ranking holds under both encodings.';

/** Invalid spans passed to countSpans (a caller bug, not user input). */
export class SpanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpanError';
  }
}

export function isTokenizerName(name: string): name is TokenizerName {
  return (TOKENIZER_NAMES as readonly string[]).includes(name);
}

const cache = new Map<TokenizerName, Tokenizer>();

/** a new encoder of `name`: its rank table and pre-tokenizer (getTokenizer keeps one per process) */
export function bpeEncoder(name: TokenizerName): BpeEncoder {
  return new BpeEncoder(loadRankTable(name), splitRegex(name));
}

/** The process-wide tokenizer for `name` (created on first use). Unknown name -> UserError. */
export function getTokenizer(name: string): Tokenizer {
  if (!isTokenizerName(name)) {
    throw new UserError(`unknown tokenizer "${name}" (valid: ${TOKENIZER_NAMES.join(', ')})`);
  }
  let t = cache.get(name);
  if (!t) {
    t = new BpeTokenizer(name, bpeEncoder(name));
    cache.set(name, t);
  }
  return t;
}

/** Resolve a tokenizer list (e.g. from a CLI flag); 'all' or ['all'] = every tokenizer. */
export function resolveTokenizers(list: readonly string[] | 'all'): Tokenizer[] {
  const names = list === 'all' || (list.length === 1 && list[0] === 'all') ? TOKENIZER_NAMES : list;
  if (names.length === 0) throw new UserError(`no tokenizer given (valid: ${TOKENIZER_NAMES.join(', ')})`);
  const seen = new Set<string>();
  const out: Tokenizer[] = [];
  for (const n of names) {
    if (seen.has(n)) continue;
    seen.add(n);
    out.push(getTokenizer(n));
  }
  return out;
}

/** pieces of a cut run up to this many characters are memoised (a run repeats across arms) */
const PIECE_MEMO_MAX_LEN = 4 * RUN_LIMIT;
/** the piece memo is dropped when it holds this many pieces (bounded memory, ~32 MB) */
const PIECE_MEMO_MAX_ENTRIES = 4096;

class BpeTokenizer implements Tokenizer {
  /** piece of a cut text -> its count */
  private pieceMemo = new Map<string, number>();

  constructor(
    readonly name: TokenizerName,
    private readonly bpe: BpeEncoder,
  ) {}

  count(text: string): number {
    if (text.length === 0) return 0;
    const c = findCuts(text);
    if (!c) return this.countBpe(text);
    let n = 0;
    for (const p of pieces(text, c.cuts)) n += this.pieceCount(p);
    return n;
  }

  countSpans(text: string, spans: readonly Span[]): SpanCount {
    const bytes = Buffer.from(text, 'utf8');
    validateSpans(spans, bytes.length);
    const byLabel: Record<string, number> = Object.create(null);
    for (const s of spans) byLabel[s.label] = 0;
    if (bytes.length === 0) return { total: 0, byLabel: { ...byLabel } };

    const c = findCuts(text);
    let pos = 0;
    let si = 0;
    let i = 0;
    for (const part of c ? pieces(text, c.cuts) : [text]) {
      for (const id of this.encode(part)) {
        const piece = this.bpe.table.bytesOf(id);
        if (piece.length === 0 || pos + piece.length > bytes.length || !sameBytes(bytes, pos, piece)) {
          throw new Error(`${this.name}: token ${i} (id ${id}) does not match the input bytes at offset ${pos}`);
        }
        // The owner of byte `pos` is the first span with end > pos (spans are contiguous, so start <= pos).
        while (spans[si].end <= pos) si++;
        byLabel[spans[si].label]++;
        pos += piece.length;
        i++;
      }
    }
    if (pos !== bytes.length) {
      throw new Error(`${this.name}: decoded tokens cover ${pos} of ${bytes.length} bytes`);
    }
    return { total: i, byLabel: { ...byLabel } };
  }

  /** the count of `text`; a failure names the tokenizer and the text's size */
  private countBpe(text: string): number {
    try {
      return this.bpe.count(text);
    } catch (e) {
      throw new Error(`${this.name}: the tokenizer failed on a text of ${text.length} characters (${(e as Error)?.message ?? String(e)})`);
    }
  }

  /** the ids of `text` (countSpans, which needs each token's bytes); a failure names the tokenizer and the text's size */
  private encode(text: string): number[] {
    try {
      return this.bpe.encode(text);
    } catch (e) {
      throw new Error(`${this.name}: the tokenizer failed on a text of ${text.length} characters (${(e as Error)?.message ?? String(e)})`);
    }
  }

  private pieceCount(p: string): number {
    if (p.length > PIECE_MEMO_MAX_LEN) return this.countBpe(p);
    let n = this.pieceMemo.get(p);
    if (n === undefined) {
      n = this.countBpe(p);
      if (this.pieceMemo.size >= PIECE_MEMO_MAX_ENTRIES) this.pieceMemo = new Map();
      this.pieceMemo.set(p, n);
    }
    return n;
  }
}

function sameBytes(hay: Uint8Array, at: number, needle: Uint8Array): boolean {
  for (let j = 0; j < needle.length; j++) if (hay[at + j] !== needle[j]) return false;
  return true;
}

/** Spans must be sorted, contiguous, start at 0 and end at the byte length. Empty spans are allowed. */
function validateSpans(spans: readonly Span[], byteLength: number): void {
  if (!Array.isArray(spans)) throw new SpanError('countSpans: spans must be an array');
  if (spans.length === 0) {
    if (byteLength === 0) return;
    throw new SpanError(`countSpans: no spans given for a text of ${byteLength} bytes`);
  }
  let expect = 0;
  spans.forEach((s, i) => {
    if (typeof s.label !== 'string') throw new SpanError(`countSpans: span ${i} has no string label`);
    if (!Number.isInteger(s.start) || !Number.isInteger(s.end)) {
      throw new SpanError(`countSpans: span ${i} ("${s.label}") has non-integer offsets ${s.start}..${s.end}`);
    }
    if (s.start !== expect) {
      throw new SpanError(
        `countSpans: span ${i} ("${s.label}") starts at byte ${s.start}, expected ${expect} (spans must be sorted and contiguous)`,
      );
    }
    if (s.end < s.start) throw new SpanError(`countSpans: span ${i} ("${s.label}") ends before it starts (${s.start}..${s.end})`);
    expect = s.end;
  });
  if (expect !== byteLength) {
    throw new SpanError(`countSpans: spans end at byte ${expect} but the text has ${byteLength} bytes`);
  }
}
