/**
 * Response-cost span attribution: partition the EXACT text of a discovery-tool response
 * (never re-serialized) into contiguous, labelled UTF-8 byte spans.
 *
 * A small single-pass JSON scanner walks the UTF-8 bytes and reports byte offsets. A running
 * `mark` starts at 0; `emit(label, end)` labels [mark, end) and moves the mark, so the spans are
 * gap-free by construction and a key/value pair's span runs from the end of the previous span
 * (its preceding comma and whitespace) through its key, colon and value.
 *
 * Labels:
 * - `input_schemas`: values of `inputSchema` (also `input_schema`, `schema`, `parameters`) in a tool entry;
 * - `descriptions`: values of `description` / `desc` in a tool entry;
 * - `usage_instructions`: the top-level `usage_instructions` pair;
 * - `metadata`: every other per-tool pair (`name`, `score`, `server`, `sig`, `id`, ...);
 * - `other`: structure (braces, brackets, the `"tools":[` opener) and other top-level pairs
 *   (`query`, `total`, `hint`, ...).
 * Tool entries live in the top-level `tools` (or `results`) array, or the top level is itself an
 * array of entries; an entry wrapped as `{"tool": {...}, "score": ...}` is labelled inside too.
 * Text that is not one JSON value (or has trailing data) is one `other` span, flagged.
 */
import type { Span } from '../tokens/tokenizer.ts';

export const COMPONENT_LABELS = ['input_schemas', 'descriptions', 'usage_instructions', 'metadata', 'other'] as const;
export type ComponentLabel = (typeof COMPONENT_LABELS)[number];
export type Components = Record<ComponentLabel, number>;

export interface ResponsePartition {
  /** contiguous labelled byte spans covering [0, byteLength) (empty text -> no spans) */
  spans: Span[];
  byteLength: number;
  /** false when the text is not a single JSON value: everything is `other` */
  json: boolean;
  /** why the text could not be attributed (set when json === false or the shape is unknown) */
  flag?: string;
  /** number of entries in the tools array (0 when none) */
  resultCount: number;
  /** ranked tool ids in response order (`server:tool` when the entry names its server) */
  ranking: string[];
  /** tool id -> the call tool the entry names in `call_with` (mcpproxy's per-result hint), when present */
  callWith?: Record<string, string>;
}

const SCHEMA_KEYS = new Set(['inputSchema', 'input_schema', 'schema', 'parameters']);
const DESCRIPTION_KEYS = new Set(['description', 'desc']);
const TOOL_ARRAY_KEYS = ['tools', 'results'];

class ScanError extends Error {}

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: false });

/** Byte-level JSON scanner with offsets; validates strictly (RFC 8259). */
class Scanner {
  pos = 0;
  constructor(readonly b: Uint8Array) {}

  fail(what: string): never {
    throw new ScanError(`${what} at byte ${this.pos}`);
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
      this.ws();
      if (this.peek() === 0x7d) this.pos++;
      else
        for (;;) {
          this.ws();
          this.string();
          this.ws();
          this.expect(0x3a);
          this.value(depth + 1);
          this.ws();
          if (this.peek() === 0x2c) {
            this.pos++;
            continue;
          }
          this.expect(0x7d);
          break;
        }
    } else if (c === 0x5b) {
      this.pos++;
      this.ws();
      if (this.peek() === 0x5d) this.pos++;
      else
        for (;;) {
          this.value(depth + 1);
          this.ws();
          if (this.peek() === 0x2c) {
            this.pos++;
            continue;
          }
          this.expect(0x5d);
          break;
        }
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
    this.ws();
    if (this.peek() === 0x7d) {
      this.pos++;
      return;
    }
    for (;;) {
      this.ws();
      const [ks, ke] = this.string();
      const key = JSON.parse(dec.decode(this.b.subarray(ks, ke))) as string;
      this.ws();
      this.expect(0x3a);
      this.ws();
      onPair(key, this.pos);
      this.ws();
      if (this.peek() === 0x2c) {
        this.pos++;
        continue;
      }
      this.expect(0x7d);
      return;
    }
  }
}

/** Partition one response text. Never throws: unparseable text becomes one flagged `other` span. */
export function partitionResponse(text: string): ResponsePartition {
  const bytes = enc.encode(text);
  const n = bytes.length;
  const spans: Span[] = [];
  let mark = 0;
  const emit = (label: ComponentLabel, end: number): void => {
    if (end <= mark) return;
    const last = spans[spans.length - 1];
    if (last && last.label === label) last.end = end;
    else spans.push({ label, start: mark, end });
    mark = end;
  };
  const s = new Scanner(bytes);
  const ranking: string[] = [];
  let callWith: Record<string, string> | undefined;
  let resultCount = 0;
  let sawToolArray = false;

  const strValue = (start: number, end: number): string | undefined => {
    if (bytes[start] !== 0x22) return undefined;
    return JSON.parse(dec.decode(bytes.subarray(start, end))) as string;
  };

  // One tool entry: an object whose pairs are labelled by key; non-objects are metadata.
  const entry = (): void => {
    s.ws();
    resultCount++;
    if (s.peek() !== 0x7b) {
      const [vs, ve] = s.value();
      emit('metadata', ve);
      const name = strValue(vs, ve);
      if (name !== undefined) ranking.push(name);
      return;
    }
    const ids: { name?: string; server?: string; id?: string; callWith?: string } = {};
    const walk = (nested: boolean): void => {
      s.pairs(
        () => emit('other', s.pos),
        (key, _vstart) => {
          if (!nested && key === 'tool' && s.peek() === 0x7b) {
            walk(true);
            return;
          }
          const [vs, ve] = s.value();
          const label: ComponentLabel = SCHEMA_KEYS.has(key) ? 'input_schemas' : DESCRIPTION_KEYS.has(key) ? 'descriptions' : 'metadata';
          emit(label, ve);
          if (key === 'call_with') {
            const v = strValue(vs, ve);
            if (v !== undefined) ids.callWith = v;
          }
          if (key === 'name' || key === 'server' || key === 'server_name' || key === 'id' || key === 'tool_id') {
            const v = strValue(vs, ve);
            if (v !== undefined) {
              if (key === 'name') ids.name = v;
              else if (key === 'id' || key === 'tool_id') ids.id = v;
              else ids.server = v;
            }
          }
        },
      );
      emit('other', s.pos);
    };
    walk(false);
    const id = ids.id ?? (ids.name !== undefined ? (ids.server && !ids.name.includes(':') ? `${ids.server}:${ids.name}` : ids.name) : undefined);
    if (id !== undefined) {
      ranking.push(id);
      if (ids.callWith !== undefined) (callWith ??= {})[id] = ids.callWith;
    }
  };

  const toolArray = (): void => {
    sawToolArray = true;
    s.ws();
    s.expect(0x5b);
    emit('other', s.pos);
    s.ws();
    if (s.peek() === 0x5d) {
      s.pos++;
    } else
      for (;;) {
        entry();
        s.ws();
        if (s.peek() === 0x2c) {
          s.pos++;
          continue;
        }
        s.expect(0x5d);
        break;
      }
    emit('other', s.pos);
  };

  try {
    s.ws();
    const c = s.peek();
    if (c === 0x7b) {
      s.pairs(
        () => emit('other', s.pos),
        (key) => {
          if (!sawToolArray && TOOL_ARRAY_KEYS.includes(key) && s.peek() === 0x5b) {
            toolArray();
            return;
          }
          const [, ve] = s.value();
          emit(key === 'usage_instructions' ? 'usage_instructions' : 'other', ve);
        },
      );
    } else if (c === 0x5b) {
      toolArray();
    } else {
      s.value();
    }
    s.ws();
    if (s.pos !== n) s.fail('trailing data after the JSON value');
    emit('other', n);
    const flag = sawToolArray ? undefined : 'JSON response without a tools array: no per-tool components';
    return { spans, byteLength: n, json: true, flag, resultCount, ranking, ...(callWith ? { callWith } : {}) };
  } catch (e) {
    if (!(e instanceof ScanError)) throw e;
    return {
      spans: n > 0 ? [{ label: 'other', start: 0, end: n }] : [],
      byteLength: n,
      json: false,
      flag: `not JSON (${e.message}): all tokens attributed to other`,
      resultCount: 0,
      ranking: [],
    };
  }
}

/** Checks the partition invariant: sorted, non-empty, gap-free spans covering [0, byteLength). */
export function checkPartition(spans: readonly Span[], byteLength: number): void {
  let at = 0;
  for (const sp of spans) {
    if (sp.start !== at || sp.end <= sp.start) throw new Error(`span partition broken at byte ${at}: ${JSON.stringify(sp)}`);
    at = sp.end;
  }
  if (at !== byteLength) throw new Error(`span partition covers ${at} of ${byteLength} bytes`);
}

/** Turns tokenizer byLabel counts into the fixed five-key component map. */
export function toComponents(byLabel: Record<string, number>): Components {
  const out = { input_schemas: 0, descriptions: 0, usage_instructions: 0, metadata: 0, other: 0 } as Components;
  for (const [k, v] of Object.entries(byLabel)) {
    if ((COMPONENT_LABELS as readonly string[]).includes(k)) out[k as ComponentLabel] += v;
    else out.other += v;
  }
  return out;
}
