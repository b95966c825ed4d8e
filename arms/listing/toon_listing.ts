/**
 * toon_listing: TOON (Token-Oriented Object Notation) via the reference TypeScript encoder
 * `@toon-format/toon` (default options: 2-space indent, comma delimiter).
 * One tool = TOON of `{name, description, inputSchema?}` (this field order; schema keys in
 * canonical code-point order); the listing = TOON of the array of those objects (one `[N]:`
 * header for the whole listing). The index sees `params` = TOON text of the schema alone.
 *
 * Differences from the predecessor's toon-go output (research note mcpproxy-bench §3.6), checked by
 * test/arms/golden.test.ts on the three predecessor tools: @toon-format/toon 4.4.0 reproduces the
 * predecessor's golden listing byte for byte (string quoting, `[N]:` headers, `required[1]: url`)
 * except one line: an empty array is `default: []` here and `default[0]:` in toon-go.
 * Known possible divergences not present in that sample:
 * - JavaScript objects put integer-like keys ("0", "10") first in ascending numeric order, so a
 *   schema with such property names is not emitted in code-point order (toon-go sorts all keys);
 * - numbers are emitted from JS doubles (shortest round-trip form), whereas toon-go kept the JSON
 *   number lexeme (`1.0` stays `1.0` there, becomes `1` here; integers beyond 2^53 lose precision).
 */
import { encode } from '@toon-format/toon';
import type { Arm } from '../types.ts';
import { ArmEncodeError } from '../errors.ts';
import { canonicalSchema, hasSchema } from '../schema.ts';
import type { JsonValue, ToolRecord } from '../../pipeline/types.ts';

const ID = 'toon_listing';

/** The schema as a plain value with keys inserted in canonical order. */
function schemaValue(tool: ToolRecord): JsonValue {
  return JSON.parse(canonicalSchema(ID, tool)) as JsonValue;
}

function toolValue(tool: ToolRecord): { [k: string]: JsonValue } {
  const v: { [k: string]: JsonValue } = { name: tool.tool, description: tool.description };
  if (hasSchema(tool)) v.inputSchema = schemaValue(tool);
  return v;
}

function toon(value: unknown, toolId?: string): string {
  try {
    return encode(value);
  } catch (e) {
    throw new ArmEncodeError(ID, `TOON encode failed: ${(e as Error).message}`, toolId);
  }
}

export const arm: Arm = {
  meta: {
    id: ID,
    kind: 'listing',
    description: 'TOON (@toon-format/toon) of {name, description, inputSchema}; the listing is one TOON array.',
    altersIndex: true,
    lowerBound: false,
    retryRate: 0.05,
  },
  available: async () => null,
  renderTool: (tool) => toon(toolValue(tool), tool.tool_id),
  renderListing: (tools) => toon(tools.map(toolValue)),
  indexDoc: (tool) => ({
    tool_id: tool.tool_id,
    server: tool.server,
    name: tool.tool,
    description: tool.description,
    params: hasSchema(tool) ? toon(schemaValue(tool), tool.tool_id) : '',
  }),
};
export default arm;
