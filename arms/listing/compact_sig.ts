/**
 * compact_sig: one line per tool, `name(params)|description` (the predecessor bench's grammar,
 * research note mcpproxy-bench §3.4; not the production "toolsig" grammar).
 *
 * Params come from the top-level `properties` and `required` of the input schema only:
 * - required first, in `required` order, de-duplicated; a required name that has no property
 *   declaration is dropped (the bench grammar's rule); then the other properties, sorted by
 *   code point (= byte order);
 * - required -> `name:type`, optional -> `name?:type`, joined by ", ";
 * - type: string -> string/int/number/bool/obj/arr (anything else `any`); a type array -> the
 *   mapped members without null/empty, de-duplicated, in declared order, joined by `|` (none
 *   left -> `any`); no `type` but `anyOf` (else `oneOf`) -> the same union over the variants'
 *   types, `any` when a variant has no `type` (e.g. a `$ref`); otherwise `any`.
 *   Enums, defaults, nested properties and constraints are dropped.
 * - no schema -> `()`.
 * Malformed shapes (schema not an object, `properties` not an object, a property that is not an
 * object, `required` not an array of strings, `type` neither a string nor an array of strings)
 * are ArmEncodeErrors, counted as skips.
 * The index sees `params` as the parameter text (the part inside the parentheses).
 */
import type { Arm } from '../types.ts';
import { ArmEncodeError } from '../errors.ts';
import { compareCodePoint, hasOwn, hasSchema, isPlainObject } from '../schema.ts';
import type { JsonValue, ToolRecord } from '../../pipeline/types.ts';

const ID = 'compact_sig';

const TYPE_MAP: Record<string, string> = {
  string: 'string',
  integer: 'int',
  number: 'number',
  boolean: 'bool',
  object: 'obj',
  array: 'arr',
};

function mapType(t: string): string {
  return hasOwn(TYPE_MAP, t) ? TYPE_MAP[t] : 'any';
}

/** Collect mapped member types of one `type` value into `out` (null/empty dropped). */
function collectType(toolId: string, where: string, t: JsonValue, out: string[]): void {
  const members = typeof t === 'string' ? [t] : Array.isArray(t) ? t : null;
  if (!members) throw new ArmEncodeError(ID, `${where}.type must be a string or an array of strings`, toolId);
  for (const m of members) {
    if (typeof m !== 'string') throw new ArmEncodeError(ID, `${where}.type must be a string or an array of strings`, toolId);
    if (m === '' || m === 'null') continue;
    const mapped = mapType(m);
    if (!out.includes(mapped)) out.push(mapped);
  }
}

function typeOf(toolId: string, name: string, prop: JsonValue): string {
  const where = `properties.${name}`;
  if (!isPlainObject(prop)) throw new ArmEncodeError(ID, `${where} must be an object`, toolId);
  const members: string[] = [];
  if (hasOwn(prop, 'type')) {
    // a lone `"type":"null"` or an unknown type string maps like the predecessor: null -> any
    if (typeof prop.type === 'string' && prop.type !== '' && prop.type !== 'null') return mapType(prop.type);
    collectType(toolId, where, prop.type, members);
    return members.length ? members.join('|') : 'any';
  }
  const variants = hasOwn(prop, 'anyOf') ? prop.anyOf : hasOwn(prop, 'oneOf') ? prop.oneOf : undefined;
  if (!Array.isArray(variants) || variants.length === 0) return 'any';
  for (const v of variants) {
    if (!isPlainObject(v) || !hasOwn(v, 'type')) return 'any';
    collectType(toolId, `${where}.${hasOwn(prop, 'anyOf') ? 'anyOf' : 'oneOf'}[]`, v.type, members);
  }
  return members.length ? members.join('|') : 'any';
}

/** The parameter text inside the parentheses, e.g. `url:string, max_length?:int`. */
export function paramsOf(tool: ToolRecord): string {
  if (!hasSchema(tool)) return '';
  const schema = tool.inputSchema;
  if (!isPlainObject(schema)) throw new ArmEncodeError(ID, 'inputSchema must be a JSON object', tool.tool_id);
  let props: { [k: string]: JsonValue } = {};
  if (hasOwn(schema, 'properties') && schema.properties !== null) {
    if (!isPlainObject(schema.properties)) throw new ArmEncodeError(ID, 'inputSchema.properties must be an object', tool.tool_id);
    props = schema.properties;
  }
  let required: string[] = [];
  if (hasOwn(schema, 'required') && schema.required !== null) {
    const r = schema.required;
    if (!Array.isArray(r) || r.some((x) => typeof x !== 'string')) {
      throw new ArmEncodeError(ID, 'inputSchema.required must be an array of strings', tool.tool_id);
    }
    required = r as string[];
  }
  const req: string[] = [];
  for (const name of required) if (hasOwn(props, name) && !req.includes(name)) req.push(name);
  const reqSet = new Set(req);
  const opt = Object.keys(props)
    .filter((k) => !reqSet.has(k))
    .sort(compareCodePoint);
  const parts = req.map((n) => `${n}:${typeOf(tool.tool_id, n, props[n])}`);
  for (const n of opt) parts.push(`${n}?:${typeOf(tool.tool_id, n, props[n])}`);
  return parts.join(', ');
}

/** The one-line signature without the description, e.g. `fetch(url:string, raw?:bool)`. Pure. */
export function signatureOf(tool: ToolRecord): string {
  return `${tool.tool}(${paramsOf(tool)})`;
}

function renderTool(tool: ToolRecord): string {
  return `${signatureOf(tool)}|${tool.description}`;
}

export const arm: Arm = {
  meta: {
    id: ID,
    kind: 'listing',
    description: 'One-line signature name(required:type, optional?:type) followed by |description.',
    altersIndex: true,
    lowerBound: false,
    retryRate: 0,
  },
  available: async () => null,
  renderTool,
  renderListing: (tools) => tools.map(renderTool).join('\n\n'),
  indexDoc: (tool) => ({
    tool_id: tool.tool_id,
    server: tool.server,
    name: tool.tool,
    description: tool.description,
    params: paramsOf(tool),
  }),
};
export default arm;
