/** Small helpers the arms share: schema presence, canonical text, code-point ordering. */
import { canonicalJson } from '../pipeline/corpus/canonical.ts';
import type { JsonValue, ToolRecord } from '../pipeline/types.ts';
import { ArmEncodeError } from './errors.ts';

/** A tool "has a schema" when inputSchema is present and not null. */
export function hasSchema(tool: ToolRecord): tool is ToolRecord & { inputSchema: JsonValue } {
  return tool.inputSchema !== undefined && tool.inputSchema !== null;
}

/** Canonical JSON of the tool's schema ("" when it has none); a non-serializable schema is an ArmEncodeError. */
export function canonicalSchema(armId: string, tool: ToolRecord): string {
  if (!hasSchema(tool)) return '';
  try {
    return canonicalJson(tool.inputSchema);
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
