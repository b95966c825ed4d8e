/**
 * Byte-pair encoding over a rank table kept as flat binary arrays (issue 31).
 *
 * Why not gpt-tokenizer's encoder: it turns its table into a Map of 100,256 (cl100k_base) or
 * 199,998 (o200k_base) strings when it loads, about 45 ms of CPU and ~12 MB of young objects per
 * process before the first count, in every `bench`, `gate` and counting worker. This table is
 * three typed arrays (each rank's bytes, where they start, and an open-addressing hash of them)
 * that load as one file read, so nothing is built per process.
 *
 * What stays the package's: the table itself (gpt-tokenizer's `bpeRanks/<encoding>`, turned into
 * this layout once and kept under the cache by ranks.ts) and the pre-tokenizer regex of each
 * encoding (`encodingParams/constants`). What is ours is the merge, written after the rule
 * tiktoken applies to each pre-token that is not itself a token: start from single bytes, and
 * repeatedly join the adjacent pair whose joined bytes have the lowest rank (the leftmost on a
 * tie) until no adjacent pair is in the table. test/tokens/engines.test.ts holds the ids to
 * tiktoken's on every string of datasets/, hostile text and random text, in both encodings.
 *
 * Layout of a table (all little-endian, 4-byte aligned), TABLE_FORMAT:
 *   header  u32 x 8: magic "MGBP", format, ranks N, slots M (a power of two >= 2N), blob bytes B,
 *           CRC-32 of everything after the header (0: not computed), 0, 0
 *   starts  u32 x (N + 1): rank r's bytes are blob[starts[r] .. starts[r + 1])
 *   slots   u32 x M: rank + 1 at the slot of the bytes' hash (linear probing), 0 = empty
 *   blob    u8 x B
 */
import zlib from 'node:zlib';

/** "MGBP" read as a little-endian u32 */
const MAGIC = 0x5042474d;
/** bump when the layout changes (ranks.ts names its cached file with it) */
export const TABLE_FORMAT = 2;
const HEADER_WORDS = 8;
const NONE = 0xffffffff;

/** zlib's CRC-32 (Node >= 20.15; undefined before: the table is then checked entry by entry instead) */
const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/** rank -> the token's text, or its bytes when they are not valid UTF-8 (gpt-tokenizer's bpeRanks) */
export type Ranks = readonly (string | readonly number[])[];

/** 32-bit FNV-1a of bytes[start, end) */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

export class RankTable {
  private readonly mask: number;

  private constructor(
    /** the number of ranks (0 .. size - 1) */
    readonly size: number,
    private readonly starts: Uint32Array,
    private readonly slots: Uint32Array,
    private readonly blob: Uint8Array,
    /** the whole table in its file layout (`bytes()`) */
    private readonly file: Uint8Array,
  ) {
    this.mask = slots.length - 1;
  }

  /** The table of `ranks` (rank -> text or bytes). Throws on two ranks with the same bytes. */
  static build(ranks: Ranks): RankTable {
    const n = ranks.length;
    const parts: Uint8Array[] = new Array(n);
    let total = 0;
    for (let r = 0; r < n; r++) {
      const v = ranks[r];
      const b = typeof v === 'string' ? Buffer.from(v, 'utf8') : Uint8Array.from(v);
      if (b.length === 0) throw new Error(`rank ${r} has no bytes`);
      parts[r] = b;
      total += b.length;
    }
    let m = 1;
    while (m < 2 * n) m *= 2;
    const blobAt = 4 * (HEADER_WORDS + n + 1 + m);
    const file = new Uint8Array(blobAt + total);
    const words = new Uint32Array(file.buffer, 0, HEADER_WORDS + n + 1 + m);
    words.set([MAGIC, TABLE_FORMAT, n, m, total]);
    const starts = words.subarray(HEADER_WORDS, HEADER_WORDS + n + 1);
    const slots = words.subarray(HEADER_WORDS + n + 1);
    const blob = file.subarray(blobAt);
    let at = 0;
    for (let r = 0; r < n; r++) {
      starts[r] = at;
      blob.set(parts[r], at);
      at += parts[r].length;
    }
    starts[n] = at;
    const table = new RankTable(n, starts, slots, blob, file);
    for (let r = 0; r < n; r++) {
      const s = starts[r];
      const e = starts[r + 1];
      let i = hashBytes(blob, s, e) & (m - 1);
      while (slots[i] !== 0) {
        if (table.equalAt(slots[i] - 1, blob, s, e)) throw new Error(`ranks ${slots[i] - 1} and ${r} have the same bytes`);
        i = (i + 1) & (m - 1);
      }
      slots[i] = r + 1;
    }
    if (crc32) words[5] = crc32(file.subarray(4 * HEADER_WORDS)) >>> 0 || 1;
    return table;
  }

  /**
   * A table from its file layout, or undefined when `file` is not one with `expectRanks` ranks:
   * wrong magic or format, a size that does not add up, a CRC-32 that does not match (~1 ms), or,
   * without one, starts that go back or past the blob, or a slot naming a rank that does not exist
   * (~4 ms): a truncated or damaged copy is never used.
   */
  static fromBytes(file: Uint8Array, expectRanks: number): RankTable | undefined {
    if (file.byteLength < 4 * HEADER_WORDS) return undefined;
    // typed views need 4-byte alignment; a buffer that is not aligned is copied once
    const f = file.byteOffset % 4 === 0 ? file : Uint8Array.from(file);
    const head = new Uint32Array(f.buffer, f.byteOffset, HEADER_WORDS);
    const [magic, format, n, m, total] = head;
    if (magic !== MAGIC || format !== TABLE_FORMAT || n !== expectRanks || m < 2 * n || (m & (m - 1)) !== 0) return undefined;
    const blobAt = 4 * (HEADER_WORDS + n + 1 + m);
    if (f.byteLength !== blobAt + total) return undefined;
    const words = new Uint32Array(f.buffer, f.byteOffset, HEADER_WORDS + n + 1 + m);
    const starts = words.subarray(HEADER_WORDS, HEADER_WORDS + n + 1);
    const slots = words.subarray(HEADER_WORDS + n + 1);
    if (starts[0] !== 0 || starts[n] !== total) return undefined;
    const blob = f.subarray(blobAt, blobAt + total);
    const crc = head[5];
    // a table written with its CRC-32 is read back whole or not at all
    if (crc !== 0 && crc32) {
      if ((crc32(f.subarray(4 * HEADER_WORDS)) >>> 0 || 1) !== crc) return undefined;
      return new RankTable(n, starts, slots, blob, f);
    }
    for (let r = 0; r < n; r++) if (starts[r + 1] <= starts[r]) return undefined;
    let filled = 0;
    for (let i = 0; i < m; i++) {
      const v = slots[i];
      if (v === 0) continue;
      if (v > n) return undefined;
      filled++;
    }
    if (filled !== n) return undefined;
    return new RankTable(n, starts, slots, blob, f);
  }

  /** the table in its file layout (what fromBytes reads) */
  bytes(): Uint8Array {
    return this.file;
  }

  /** the rank of bytes[start, end), or NONE */
  rankOf(bytes: Uint8Array, start: number, end: number): number {
    const slots = this.slots;
    let i = hashBytes(bytes, start, end) & this.mask;
    for (;;) {
      const v = slots[i];
      if (v === 0) return NONE;
      if (this.equalAt(v - 1, bytes, start, end)) return v - 1;
      i = (i + 1) & this.mask;
    }
  }

  /** the bytes of `rank` (a view into the table) */
  bytesOf(rank: number): Uint8Array {
    if (!(rank >= 0 && rank < this.size)) throw new RangeError(`no rank ${rank} in a table of ${this.size}`);
    return this.blob.subarray(this.starts[rank], this.starts[rank + 1]);
  }

  private equalAt(rank: number, bytes: Uint8Array, start: number, end: number): boolean {
    const s = this.starts[rank];
    if (this.starts[rank + 1] - s !== end - start) return false;
    const blob = this.blob;
    for (let j = 0; j < end - start; j++) if (blob[s + j] !== bytes[start + j]) return false;
    return true;
  }
}

/**
 * An encoding: a rank table and its pre-tokenizer regex (global and unicode). Special-token text
 * is ordinary text here (no special tokens at all), as tokens/tokenizer.ts counts it.
 */
export class BpeEncoder {
  private readonly split: RegExp;
  /** the UTF-8 bytes of the pre-token being encoded */
  private buf = new Uint8Array(256);
  /** the merge's part starts and pair ranks */
  private pos = new Int32Array(257);
  private rank = new Uint32Array(257);

  constructor(
    readonly table: RankTable,
    split: RegExp,
  ) {
    // a copy: exec moves lastIndex, and the package's regex object is shared
    this.split = new RegExp(split.source, split.flags.includes('g') ? split.flags : `${split.flags}g`);
  }

  /** the number of tokens of `text` */
  count(text: string): number {
    let n = 0;
    this.eachPiece(text, (len) => {
      n += len === 1 || this.table.rankOf(this.buf, 0, len) !== NONE ? 1 : this.merge(len);
    });
    return n;
  }

  /** the token ids of `text` */
  encode(text: string): number[] {
    const out: number[] = [];
    this.eachPiece(text, (len) => {
      const whole = this.table.rankOf(this.buf, 0, len);
      if (whole !== NONE) {
        out.push(whole);
        return;
      }
      const parts = this.merge(len);
      for (let i = 0; i < parts; i++) out.push(this.table.rankOf(this.buf, this.pos[i], this.pos[i + 1]));
    });
    return out;
  }

  /** each pre-token of `text`, its UTF-8 bytes put in this.buf, `fn` given their length */
  private eachPiece(text: string, fn: (len: number) => void): void {
    const re = this.split;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const piece = m[0];
      if (piece.length === 0) {
        // no pattern of ours matches empty text; step over it all the same (never loop)
        re.lastIndex++;
        continue;
      }
      fn(this.utf8(piece));
    }
  }

  /** `s` as UTF-8 into this.buf (a lone surrogate as U+FFFD, as TextEncoder writes it); the byte length */
  private utf8(s: string): number {
    if (this.buf.length < 3 * s.length) this.buf = new Uint8Array(3 * s.length);
    const b = this.buf;
    let j = 0;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) b[j++] = c;
      else if (c < 0x800) {
        b[j++] = 0xc0 | (c >> 6);
        b[j++] = 0x80 | (c & 0x3f);
      } else {
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
          const d = s.charCodeAt(i + 1);
          if (d >= 0xdc00 && d < 0xe000) {
            const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
            b[j++] = 0xf0 | (cp >> 18);
            b[j++] = 0x80 | ((cp >> 12) & 0x3f);
            b[j++] = 0x80 | ((cp >> 6) & 0x3f);
            b[j++] = 0x80 | (cp & 0x3f);
            i++;
            continue;
          }
        }
        if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
        b[j++] = 0xe0 | (c >> 12);
        b[j++] = 0x80 | ((c >> 6) & 0x3f);
        b[j++] = 0x80 | (c & 0x3f);
      }
    }
    return j;
  }

  /**
   * BPE of this.buf[0, len) (len >= 2, not itself a token): the number of tokens; their starts
   * are this.pos[0 .. count] (the last one is len).
   */
  private merge(len: number): number {
    if (this.pos.length < len + 1) {
      this.pos = new Int32Array(len + 1);
      this.rank = new Uint32Array(len + 1);
    }
    const { pos, rank, table } = this;
    const b = this.buf;
    // parts are single bytes; rank[i] is the rank of part i joined with part i + 1
    for (let i = 0; i < len; i++) {
      pos[i] = i;
      rank[i] = i + 1 < len ? table.rankOf(b, i, i + 2) : NONE;
    }
    pos[len] = len;
    rank[len] = NONE;
    let parts = len + 1; // entries in pos (tokens + 1)
    for (;;) {
      let best = NONE;
      let at = -1;
      for (let i = 0; i < parts - 1; i++) {
        if (rank[i] < best) {
          best = rank[i];
          at = i;
        }
      }
      if (at < 0) break;
      // join part `at` with part `at + 1`: the pairs around it are ranked anew, then the start
      // of part `at + 1` goes
      if (at > 0) rank[at - 1] = at + 2 < parts ? table.rankOf(b, pos[at - 1], pos[at + 2]) : NONE;
      rank[at] = at + 3 < parts ? table.rankOf(b, pos[at], pos[at + 3]) : NONE;
      for (let i = at + 1; i < parts - 1; i++) {
        pos[i] = pos[i + 1];
        rank[i] = rank[i + 1];
      }
      parts--;
    }
    return parts - 1;
  }
}
