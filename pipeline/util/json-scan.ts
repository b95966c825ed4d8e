/**
 * A byte-level JSON scanner: walks the UTF-8 bytes of one text, validates strictly (RFC 8259
 * grammar, nesting at most 512 deep) and reports byte offsets, so a caller can label exact byte
 * ranges of a text it never re-serializes. It knows nothing of what the JSON means: callers
 * drive it (`value()` skips any value, `pairs()` iterates an object's pairs, `string()` returns a
 * string's [start, end) with its quotes). Errors are `JsonScanError` with the byte offset.
 * Used by the discovery-response reader (pipeline/adapter/discovery-response.ts).
 */

/** Text that is not one strict JSON value; the message names the byte offset. */
export class JsonScanError extends Error {}

const dec = new TextDecoder('utf-8', { fatal: false });

/** Byte-level JSON scanner with offsets; validates strictly (RFC 8259). */
export class JsonScanner {
  pos = 0;
  constructor(readonly b: Uint8Array) {}

  fail(what: string): never {
    throw new JsonScanError(`${what} at byte ${this.pos}`);
  }
  ws(): void {
    const b = this.b;
    while (this.pos < b.length) {
      const c = b[this.pos];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else break;
    }
  }
  peek(): number {
    return this.pos < this.b.length ? this.b[this.pos] : -1;
  }
  expect(c: number): void {
    if (this.peek() !== c) this.fail(`expected '${String.fromCharCode(c)}'`);
    this.pos++;
  }
  /** scans a string starting at '"'; returns [start, end) including quotes */
  string(): [number, number] {
    const start = this.pos;
    this.expect(0x22);
    const b = this.b;
    while (this.pos < b.length) {
      const c = b[this.pos];
      if (c === 0x22) {
        this.pos++;
        return [start, this.pos];
      }
      if (c === 0x5c) {
        const e = b[this.pos + 1];
        if (e === 0x75) {
          for (let i = 2; i < 6; i++) {
            const h = b[this.pos + i];
            const hex = (h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66);
            if (!hex) this.fail('bad \\u escape');
          }
          this.pos += 6;
        } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
          this.pos += 2;
        } else this.fail('bad escape');
      } else if (c < 0x20) this.fail('control character in string');
      else this.pos++;
    }
    this.fail('unterminated string');
  }
  number(): void {
    const b = this.b;
    const digits = (): number => {
      const s = this.pos;
      while (this.pos < b.length && b[this.pos] >= 0x30 && b[this.pos] <= 0x39) this.pos++;
      return this.pos - s;
    };
    if (this.peek() === 0x2d) this.pos++;
    if (this.peek() === 0x30) this.pos++;
    else if (digits() === 0) this.fail('bad number');
    if (this.peek() === 0x2e) {
      this.pos++;
      if (digits() === 0) this.fail('bad number fraction');
    }
    if (this.peek() === 0x65 || this.peek() === 0x45) {
      this.pos++;
      if (this.peek() === 0x2b || this.peek() === 0x2d) this.pos++;
      if (digits() === 0) this.fail('bad number exponent');
    }
  }
  literal(word: string): void {
    for (let i = 0; i < word.length; i++) {
      if (this.b[this.pos + i] !== word.charCodeAt(i)) this.fail(`bad literal`);
    }
    this.pos += word.length;
  }
  /** skips any value (after leading whitespace); returns [start, end) */
  value(depth = 0): [number, number] {
    if (depth > 512) this.fail('nesting too deep');
    this.ws();
    const start = this.pos;
    const c = this.peek();
    if (c === 0x7b) {
      this.pos++;
      this.items(0x7d, () => {
        this.ws();
        this.string();
        this.ws();
        this.expect(0x3a);
        this.value(depth + 1);
      });
    } else if (c === 0x5b) {
      this.pos++;
      this.items(0x5d, () => this.value(depth + 1));
    } else if (c === 0x22) this.string();
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) this.number();
    else if (c === 0x74) this.literal('true');
    else if (c === 0x66) this.literal('false');
    else if (c === 0x6e) this.literal('null');
    else this.fail(c < 0 ? 'unexpected end of text' : 'unexpected character');
    return [start, this.pos];
  }
  /** iterates the pairs of an object at the current position ('{' expected after ws) */
  pairs(onOpen: () => void, onPair: (key: string, valueStart: number) => void): void {
    this.ws();
    this.expect(0x7b);
    onOpen();
    this.items(0x7d, () => {
      this.ws();
      const [ks, ke] = this.string();
      const key = decodeJsonString(this.b, ks, ke);
      this.ws();
      this.expect(0x3a);
      this.ws();
      onPair(key, this.pos);
    });
  }
  /**
   * the comma-separated items of an object or array whose opening byte was just consumed, up to
   * and including `close` (0x7d or 0x5d); `item` scans one item
   */
  items(close: number, item: () => void): void {
    this.ws();
    if (this.peek() === close) {
      this.pos++;
      return;
    }
    for (;;) {
      item();
      this.ws();
      if (this.peek() === 0x2c) {
        this.pos++;
        continue;
      }
      this.expect(close);
      return;
    }
  }
}

/** Decodes a scanned JSON string token [start, end) (quotes included). */
export function decodeJsonString(b: Uint8Array, start: number, end: number): string {
  return JSON.parse(dec.decode(b.subarray(start, end))) as string;
}
