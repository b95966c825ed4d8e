/**
 * Shared helpers for every corpus loader: one-line errors that name file, JSON path and reason;
 * building canonical ToolRecords; sorting with duplicate detection; pretty canonical output.
 */
import { canonicalJson, compareCodePoint } from './canonical.ts';
import { UserError, type JsonValue, type ToolRecord } from '../types.ts';
import { readInputText } from '../util/fs.ts';

/** Throw the one-line loader error: `<file>: <json path>: <reason>`. */
export function fail(file: string, path: string, reason: string): never {
  throw new UserError(`${file}: ${path}: ${oneLine(reason)}`);
}

export function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}

/** `$.a.b[3]["odd key"]` style JSON path. */
export function jp(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Read a file as UTF-8 (util/fs.ts readInputText: a regular file within the input size limit), or a one-line UserError naming it. */
export function readText(file: string): string {
  return readInputText(file, 'a JSON file');
}

/** Parse JSON text; malformed input names the file, line and column. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    let where = '';
    if (m) {
      const pos = Number(m[1]);
      const before = text.slice(0, pos);
      const line = before.split('\n').length;
      const col = pos - before.lastIndexOf('\n');
      where = ` at line ${line} column ${col}`;
    }
    if (text.trim() === '') throw new UserError(`${file}: $: malformed JSON: file is empty`);
    throw new UserError(`${file}: $: malformed JSON${where}: ${oneLine(msg)}`);
  }
}

export function readJson(file: string): unknown {
  return parseJsonText(readText(file), file);
}

/** Deep copy of a JSON value with object keys in canonical order (via canonicalJson). */
export function canonicalCopy(v: unknown, file: string, path: string): JsonValue {
  let text: string;
  try {
    text = canonicalJson(v);
  } catch (e) {
    fail(file, path, (e as Error).message);
  }
  return JSON.parse(text) as JsonValue;
}

/**
 * Parse an input schema: an object, or a string holding a JSON object (some datasets store it
 * as text). Anything else is an error.
 */
export function parseSchema(v: unknown, file: string, path: string): JsonValue {
  let s = v;
  if (typeof s === 'string') {
    try {
      s = JSON.parse(s);
    } catch (e) {
      fail(file, path, `inputSchema string is not valid JSON (${(e as Error).message})`);
    }
  }
  if (!isPlainObject(s)) fail(file, path, `inputSchema must be a JSON object, got ${typeName(s)}`);
  return canonicalCopy(s, file, path);
}

export interface RawTool {
  server: unknown;
  tool: unknown;
  description: unknown;
  inputSchema?: unknown;
  annotations?: unknown;
  /** when the source also carries a tool_id, it must equal server:tool */
  tool_id?: unknown;
}

/** Validate one record and build the canonical ToolRecord. `path` is the record's JSON path. */
export function makeTool(raw: RawTool, file: string, path: string, opts: { descriptionNullAsEmpty?: boolean } = {}): ToolRecord {
  const server = raw.server;
  const tool = raw.tool;
  if (typeof server !== 'string' || server.trim() === '')
    fail(file, jp(path, 'server'), `server must be a non-empty string, got ${JSON.stringify(server) ?? 'nothing'}`);
  if (typeof tool !== 'string' || tool.trim() === '')
    fail(file, jp(path, 'tool'), `tool must be a non-empty string, got ${JSON.stringify(tool) ?? 'nothing'}`);
  if (server.includes(':')) fail(file, jp(path, 'server'), `server name ${JSON.stringify(server)} must not contain ":"`);
  // invalid UTF-8 bytes were decoded as U+FFFD: say so before any tool_id comparison can confuse
  for (const [key, v] of [
    ['server', server],
    ['tool', tool],
    ['tool_id', typeof raw.tool_id === 'string' ? raw.tool_id : ''],
  ] as const) {
    if (v.includes('\uFFFD'))
      fail(file, jp(path, key), `${key} ${JSON.stringify(v)} holds invalid UTF-8 (decoded as U+FFFD); fix the bytes in the source file`);
  }
  let description = raw.description;
  if ((description === null || description === undefined) && opts.descriptionNullAsEmpty) description = '';
  if (typeof description !== 'string') fail(file, jp(path, 'description'), `description must be a string, got ${typeName(description)}`);
  const tool_id = `${server}:${tool}`;
  if (raw.tool_id !== undefined && raw.tool_id !== tool_id) {
    fail(file, jp(path, 'tool_id'), `tool_id ${JSON.stringify(raw.tool_id)} does not equal server:tool ${JSON.stringify(tool_id)}`);
  }
  const rec: ToolRecord = { tool_id, server, tool, description };
  if (raw.inputSchema !== undefined && raw.inputSchema !== null)
    rec.inputSchema = parseSchema(raw.inputSchema, file, jp(path, 'inputSchema'));
  if (raw.annotations !== undefined && raw.annotations !== null) {
    if (!isPlainObject(raw.annotations))
      fail(file, jp(path, 'annotations'), `annotations must be an object, got ${typeName(raw.annotations)}`);
    rec.annotations = canonicalCopy(raw.annotations, file, jp(path, 'annotations')) as { [k: string]: JsonValue };
  }
  return rec;
}

/** Code-point order on tool_id (matches canonical key order and Go's byte order). */
export const compareIds = compareCodePoint;

/** Sort by tool_id; a duplicate tool_id is an error naming both JSON paths. */
export function sortUnique(items: Array<{ rec: ToolRecord; path: string }>, file: string): ToolRecord[] {
  const seen = new Map<string, string>();
  for (const { rec, path } of items) {
    const prev = seen.get(rec.tool_id);
    if (prev !== undefined) fail(file, path, `duplicate tool_id ${JSON.stringify(rec.tool_id)} (first at ${prev})`);
    seen.set(rec.tool_id, path);
  }
  return items.map((x) => x.rec).sort((a, b) => compareIds(a.tool_id, b.tool_id));
}

/** Pretty-printed canonical JSON (2-space indent, keys in code-point order, trailing newline). */
export function prettyCanonical(value: unknown): string {
  const compact = canonicalJson(value); // validates and fixes number spelling
  return pretty(JSON.parse(compact), '') + '\n';
  function pretty(v: unknown, ind: string): string {
    if (v === null || typeof v !== 'object') return canonicalJson(v);
    const inner = ind + '  ';
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      return '[\n' + v.map((x) => inner + pretty(x, inner)).join(',\n') + '\n' + ind + ']';
    }
    // key order: re-derive from canonical order (JSON.parse may hoist integer-like keys)
    const keys = Object.keys(v).sort(compareIds);
    if (keys.length === 0) return '{}';
    return (
      '{\n' +
      keys.map((k) => inner + JSON.stringify(k) + ': ' + pretty((v as Record<string, unknown>)[k], inner)).join(',\n') +
      '\n' +
      ind +
      '}'
    );
  }
}

/** Lenient JSON for upstream text fields that may contain bare NaN/Infinity (outside strings): they become null. */
export function parseJsonLenient(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    let out = '';
    let i = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        let j = i + 1;
        while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        out += text.slice(i, j + 1);
        i = j + 1;
        continue;
      }
      const m = /^(-?Infinity|NaN)/.exec(text.slice(i, i + 9));
      if (m) {
        out += 'null';
        i += m[0].length;
        continue;
      }
      out += c;
      i++;
    }
    return JSON.parse(out);
  }
}
