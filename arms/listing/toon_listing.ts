/**
 * toon_listing: TOON (Token-Oriented Object Notation) via the reference TypeScript encoder
 * `@toon-format/toon` (default options: 2-space indent, comma delimiter).
 * One tool = TOON of `{name, description, inputSchema?}` (this field order; schema keys in
 * canonical code-point order); the listing = TOON of the array of those objects (one `[N]:`
 * header for the whole listing). The index sees `params` = TOON text of the schema alone.
 *
 * Differences from the predecessor's toon-go output (research note mcpproxy-bench §3.6). Two are
 * structural, and both occur in real catalogs:
 * - an empty array prints `default: []` here and `default[0]:` in toon-go (one token more each);
 * - @toon-format/toon prints a schema's `properties` object whose values are uniform primitive-only
 *   objects in its table form (`properties[2:]{description,type}:` then one row per property);
 *   toon-go prints each property as a nested block. The table is shorter.
 * Measured on the predecessor's corpus_v2 (issue 25; corpus_v2 is not in this repository): 9 folded
 * `properties` tables (-67 tokens) and 5 empty arrays (+5), 5364 vs 5436 cl100k_base tokens for the
 * whole listing. Counted here by rendering the listing: corpus-npm4-v1 (37 tools) has 7 folded
 * tables and 2 empty arrays; the LiveMCPTool mirror (527 tools) 251 and 18. So this arm is not a
 * byte-for-byte stand-in for toon-go: on schemas with flat properties it is somewhat cheaper.
 * On the predecessor's three golden tools (no nested properties) test/arms/golden.test.ts checks
 * that @toon-format/toon 4.4.0 reproduces the predecessor's golden listing byte for byte (string
 * quoting, `[N]:` headers, `required[1]: url`) except the one empty-array line.
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

/** each schema object's canonical value, kept as arms/schema.ts keeps its text (the encoder only reads it) */
const schemaValues = new WeakMap<object, JsonValue>();

/** The schema as a plain value with keys inserted in canonical order. */
function schemaValue(tool: ToolRecord): JsonValue {
  const schema = tool.inputSchema;
  const key = typeof schema === 'object' && schema !== null ? schema : null;
  let v = key ? schemaValues.get(key) : undefined;
  if (v === undefined) {
    v = JSON.parse(canonicalSchema(ID, tool)) as JsonValue;
    if (key) schemaValues.set(key, v);
  }
  return v;
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
