/** Small helpers the arms share: schema presence, canonical text, code-point ordering. */
import { canonicalJson } from '../pipeline/corpus/canonical.ts';
import type { JsonValue, ToolRecord } from '../pipeline/types.ts';
import { ArmEncodeError } from './errors.ts';

/** A tool "has a schema" when inputSchema is present and not null. */
export function hasSchema(tool: ToolRecord): tool is ToolRecord & { inputSchema: JsonValue } {
  return tool.inputSchema !== undefined && tool.inputSchema !== null;
}

/**
 * canonical text of each schema object already written out: a schema is read-only once a tool
 * record holds it (a record gets a new object, never an edited one), and the simulated discovery
 * responses render each tool once per query and arm (corpus_v2: 45 tools, 2,115 renders)
 */
const canonicalBySchema = new WeakMap<object, string>();

/** Canonical JSON of the tool's schema ("" when it has none); a non-serializable schema is an ArmEncodeError. */
export function canonicalSchema(armId: string, tool: ToolRecord): string {
  if (!hasSchema(tool)) return '';
  const schema = tool.inputSchema;
  const memo = typeof schema === 'object' && schema !== null;
  if (memo) {
    const hit = canonicalBySchema.get(schema);
    if (hit !== undefined) return hit;
  }
  try {
    const text = canonicalJson(schema);
    if (memo) canonicalBySchema.set(schema, text);
    return text;
  } catch (e) {
    throw new ArmEncodeError(armId, `inputSchema: ${(e as Error).message}`, tool.tool_id);
  }
}

export { compareCodePoint } from '../pipeline/corpus/canonical.ts';

export function isPlainObject(v: unknown): v is { [k: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasOwn(o: object, k: string): boolean {
  return Object.hasOwn(o, k);
}
