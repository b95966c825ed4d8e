/**
 * JSON shapes of the proxy's tool results. Key names are a contract: the live stage attributes
 * response tokens by key (inputSchema -> input_schemas, description/desc -> descriptions,
 * usage_instructions -> usage_instructions, every other key -> metadata). See README.md.
 */
import { signatureOf } from '../../arms/listing/compact_sig.ts';
import type { JsonValue } from '../types.ts';
import type { CatalogEntry, CatalogHit } from './catalog.ts';

export type Detail = 'full' | 'compact';

export const USAGE_INSTRUCTIONS: Record<Detail, string> = {
  full:
    'Pick the tool whose description fits the task and run it with call_tool {"name": "<server:tool>", "arguments": {...}}, ' +
    'arguments matching its inputSchema. If nothing fits, call retrieve_tools again with other words.',
  compact:
    'Pick the tool whose desc fits the task; sig lists its parameters (name:type, ? = optional). Run it with call_tool ' +
    '{"name": "<server:tool>", "arguments": {...}}. Call describe_tool {"name": "<server:tool>"} first when you need the full ' +
    'input schema. If nothing fits, call retrieve_tools again with other words.',
};

const EMPTY_SCHEMA: JsonValue = { type: 'object', properties: {} };

/** Score as shown to the model: 4 decimals are enough to keep the order readable. */
export function displayScore(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}

/** First sentence of a description (first line, up to the first ". "), at most 200 characters. */
export function firstSentence(text: string): string {
  const line = (text ?? '').trim().split(/\r?\n/)[0]?.trim() ?? '';
  const m = /^(.+?[.!?])(\s|$)/.exec(line);
  const s = m ? m[1] : line;
  return s.length > 200 ? `${s.slice(0, 199).trimEnd()}…` : s;
}

/** Compact signature; a schema the grammar cannot encode becomes `name(~)`. */
export function compactSig(entry: CatalogEntry): string {
  try {
    return signatureOf(entry.record);
  } catch {
    return `${entry.record.tool}(~)`;
  }
}

export function schemaOf(entry: CatalogEntry): JsonValue {
  const s = entry.record.inputSchema;
  return s && typeof s === 'object' && !Array.isArray(s) ? s : EMPTY_SCHEMA;
}

export function retrieveResponse(query: string, hits: CatalogHit[], detail: Detail): Record<string, unknown> {
  const tools =
    detail === 'full'
      ? hits.map((h) => ({
          name: h.entry.record.tool_id,
          server: h.entry.record.server,
          score: displayScore(h.score),
          description: h.entry.record.description,
          inputSchema: schemaOf(h.entry),
        }))
      : hits.map((h) => ({
          name: h.entry.record.tool_id,
          score: displayScore(h.score),
          sig: compactSig(h.entry),
          desc: firstSentence(h.entry.record.description),
        }));
  return { query, total: tools.length, tools, usage_instructions: USAGE_INSTRUCTIONS[detail] };
}

export function describeResponse(entry: CatalogEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: entry.record.tool_id,
    server: entry.record.server,
    description: entry.record.description,
    inputSchema: schemaOf(entry),
  };
  if (entry.wire.outputSchema !== undefined) out.outputSchema = entry.wire.outputSchema;
  if (entry.record.annotations) out.annotations = entry.record.annotations;
  return out;
}
