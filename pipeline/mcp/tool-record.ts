/**
 * A tool as it came over the wire (`tools/list`), and the one conversion of it into the
 * `ToolRecord` every stage works on (live menus, the proxy's catalog, the frozen proxy menu,
 * fixture catalogs built from a corpus, the gate's budget, the systems' menus).
 */
import type { JsonValue, ToolRecord } from '../types.ts';

/** A tool as it came over the wire (tools/list), untouched. */
export interface WireTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: Record<string, unknown>;
  [k: string]: unknown;
}

/**
 * `server:name` as a ToolRecord. The description is kept when it is a string (else ''), the
 * input schema whenever it is present (a null schema is kept: every reader treats null as "no
 * schema", `arms/schema.ts` hasSchema, `live` schemaMissing), the annotations when they are an
 * object. Values are shared with the wire object, not copied.
 */
export function toolRecordOf(server: string, t: WireTool): ToolRecord {
  const rec: ToolRecord = {
    tool_id: `${server}:${t.name}`,
    server,
    tool: t.name,
    description: typeof t.description === 'string' ? t.description : '',
  };
  if (t.inputSchema !== undefined) rec.inputSchema = t.inputSchema as JsonValue;
  if (t.annotations && typeof t.annotations === 'object') rec.annotations = t.annotations as { [k: string]: JsonValue };
  return rec;
}
