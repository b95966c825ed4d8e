/**
 * Response-cost span attribution: partition the EXACT text of a discovery-tool response
 * (never re-serialized) into contiguous, labelled UTF-8 byte spans.
 *
 * The discovery-response reader (pipeline/adapter/discovery-response.ts, on the byte-level JSON
 * scanner pipeline/util/json-scan.ts) walks the UTF-8 bytes once and says where each part ends;
 * this file only labels the parts. A running `mark` starts at 0; `emit(label, end)` labels
 * [mark, end) and moves the mark, so the spans are gap-free by construction and a key/value
 * pair's span runs from the end of the previous span (its preceding comma and whitespace)
 * through its key, colon and value.
 *
 * Labels:
 * - `input_schemas`: values of `inputSchema` (also `input_schema`, `schema`, `parameters`) in a tool entry;
 * - `descriptions`: values of `description` / `desc` in a tool entry;
 * - `usage_instructions`: the top-level `usage_instructions` pair;
 * - `metadata`: every other per-tool pair (`name`, `score`, `server`, `sig`, `id`, ...);
 * - `other`: structure (braces, brackets, the `"tools":[` opener) and other top-level pairs
 *   (`query`, `total`, `hint`, ...).
 * Tool entries (where they live, how they name their tool) are the reader's: the top-level
 * `tools` (or `results`) array, or a top-level array; a `{"tool": {...}, ...}` wrapper is read inside.
 * Text that is not one JSON value (or has trailing data) is one `other` span, flagged.
 */
import type { Span } from '../tokens/tokenizer.ts';
import { JsonScanError } from '../util/json-scan.ts';
import { readDiscoveryResponse } from '../adapter/discovery-response.ts';

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

const enc = new TextEncoder();

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
  try {
    const read = readDiscoveryResponse(bytes, {
      structure: (end) => emit('other', end),
      topPair: (key, end) => emit(key === 'usage_instructions' ? 'usage_instructions' : 'other', end),
      entryPair: (key, end) =>
        emit(
          key === null ? 'metadata' : SCHEMA_KEYS.has(key) ? 'input_schemas' : DESCRIPTION_KEYS.has(key) ? 'descriptions' : 'metadata',
          end,
        ),
    });
    const flag = read.sawToolArray ? undefined : 'JSON response without a tools array: no per-tool components';
    return {
      spans,
      byteLength: n,
      json: true,
      flag,
      resultCount: read.resultCount,
      ranking: read.ranking,
      ...(read.callWith ? { callWith: read.callWith } : {}),
    };
  } catch (e) {
    if (!(e instanceof JsonScanError)) throw e;
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
