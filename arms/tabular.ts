/**
 * The tabular rule for tool-result payloads (one home; documented in datasets/README.md):
 *
 *   a payload is `tabular` when it is a JSON array of at least 2 elements, every element is an
 *   object with at least one key, every value of every element is a primitive (string, number,
 *   boolean, null), and every element has the same set of keys. Anything else is `non_tabular`.
 *
 * This is exactly the shape TOON's tabular form (`[N]{a,b}:` header + one row per element) and a
 * CSV header + rows can carry; a single row is not counted as a table.
 */
import type { JsonValue } from '../pipeline/types.ts';

export type PayloadClass = 'tabular' | 'non_tabular';
export const PAYLOAD_CLASSES: readonly PayloadClass[] = Object.freeze(['tabular', 'non_tabular'] as const);
export const MIN_TABLE_ROWS = 2;

function isPrimitive(v: unknown): boolean {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** Why a value is not tabular (null = it is). */
export function whyNotTabular(v: unknown): string | null {
  if (!Array.isArray(v)) return `not an array (${v === null ? 'null' : typeof v})`;
  if (v.length < MIN_TABLE_ROWS) return `array of ${v.length} element(s), fewer than ${MIN_TABLE_ROWS}`;
  let keys: string | null = null;
  for (let i = 0; i < v.length; i++) {
    const row = v[i] as unknown;
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return `element [${i}] is not an object`;
    const ks = Object.keys(row);
    if (ks.length === 0) return `element [${i}] has no keys`;
    for (const k of ks)
      if (!isPrimitive((row as Record<string, unknown>)[k])) return `element [${i}].${k} is not a primitive (nested value)`;
    const sig = JSON.stringify([...ks].sort());
    if (keys === null) keys = sig;
    else if (sig !== keys) return `element [${i}] has a different key set than element [0]`;
  }
  return null;
}

export function classifyPayload(v: JsonValue): PayloadClass {
  return whyNotTabular(v) === null ? 'tabular' : 'non_tabular';
}
