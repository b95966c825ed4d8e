import { createHash } from 'node:crypto';
import type { JsonValue } from '../types.ts';

/**
 * Canonical JSON: the single serialization used for hashing and for the baseline arm.
 *
 * Rules (documented in docs/corpus.md "Canonical JSON"):
 * - object keys sorted by Unicode code point (equal to UTF-8 byte order, and to Go's and
 *   Python's sort_keys), arrays keep their order;
 * - compact: no whitespace;
 * - numbers use the ECMAScript shortest round-trip form (1.0 -> 1, 1e3 -> 1000), so two
 *   sources that differ only in number spelling hash alike;
 * - strings use JSON.stringify escaping (no HTML escaping; U+2028/2029 kept literal);
 * - non-finite numbers and undefined values are errors, never silently dropped;
 * - nesting deeper than MAX_JSON_DEPTH levels is an error (a clear one, not a stack overflow).
 */
export function canonicalJson(value: unknown): string {
  return enc(value, '$', 0);
}

/** Deepest nesting (objects and arrays) accepted in a schema or any canonical JSON value. */
export const MAX_JSON_DEPTH = 64;

/**
 * Compare strings by Unicode code point, which equals UTF-8 byte order (Go's sort.Strings,
 * Python's sort_keys). JS's default sort compares UTF-16 units, which differs for astral
 * characters against U+E000..U+FFFF. The one comparator the project uses for ids and keys.
 */
export function compareCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const sx = x >= 0xd800 && x <= 0xdfff;
      const sy = y >= 0xd800 && y <= 0xdfff;
      // a surrogate (astral code point) sorts after any BMP code unit that is not one
      if (sx === sy) return x - y;
      return sx ? 1 : -1;
    }
  }
  return a.length - b.length;
}

function enc(v: unknown, path: string, depth: number): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`canonical JSON: non-finite number at ${path}`);
      return Object.is(v, -0) ? '0' : String(v);
    case 'string':
      return JSON.stringify(v);
    case 'object': {
      if (depth >= MAX_JSON_DEPTH) {
        throw new Error(
          `canonical JSON: nested deeper than ${MAX_JSON_DEPTH} levels at ${path.length > 120 ? `${path.slice(0, 120)}…` : path}`,
        );
      }
      if (Array.isArray(v)) return '[' + v.map((x, i) => enc(x, `${path}[${i}]`, depth + 1)).join(',') + ']';
      const keys = Object.keys(v as object).sort(compareCodePoint);
      const parts: string[] = [];
      for (const k of keys) {
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined) throw new Error(`canonical JSON: undefined value at ${path}.${k}`);
        parts.push(JSON.stringify(k) + ':' + enc(x, `${path}.${k}`, depth + 1));
      }
      return '{' + parts.join(',') + '}';
    }
    default:
      throw new Error(`canonical JSON: unsupported ${typeof v} at ${path}`);
  }
}

/** Parse JSON text strictly (JSON.parse already rejects trailing data such as `{}}`). */
export function parseJsonStrict(text: string, where: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (e) {
    throw new Error(`${where}: malformed JSON: ${(e as Error).message}`);
  }
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
