/**
 * The project's own frozen corpus files (`datasets/<version>.tools.json`).
 *
 * Format (format_version 1), written pretty-printed with keys in canonical order:
 *   {
 *     "format": "mcpgauge-corpus", "format_version": 1,
 *     "version": "corpus-npm4-v1",            // equals the file name stem before .tools.json
 *     "name", "license", "attribution"?,     // descriptor the report shows
 *     "generated_from": {...},               // how it was produced (packages, versions, normalization)
 *     "server_count", "tool_count",          // must equal the rows
 *     "tools_sha256",                        // sha256 of canonicalJson(tools): detects hand edits
 *     "tools": [ToolRecord...]               // sorted by tool_id, unique
 *   }
 * A frozen version is immutable: a refresh is a new version (`-v2`), never an overwrite.
 */
import { basename, resolve, relative, isAbsolute, sep } from 'node:path';
import { canonicalJson, sha256Hex } from './canonical.ts';
import { fail, isPlainObject, jp, makeTool, prettyCanonical, sortUnique, typeName } from './record.ts';
import type { Corpus, JsonValue, ToolRecord } from '../types.ts';

export const CORPUS_FORMAT = 'mcpgauge-corpus';
export const CORPUS_FORMAT_VERSION = 1;
export const VERSION_RE = /^[a-z0-9][a-z0-9._-]*-v[0-9]+$/;
import { DATASETS_DIR } from '../constants.ts';

export interface FrozenCorpusFile {
  format: typeof CORPUS_FORMAT;
  format_version: number;
  version: string;
  name: string;
  license: string;
  attribution?: string;
  generated_from: { [k: string]: JsonValue };
  server_count: number;
  tool_count: number;
  tools_sha256: string;
  tools: ToolRecord[];
}

const TOP_KEYS = new Set([
  'format',
  'format_version',
  'version',
  'name',
  'license',
  'attribution',
  'generated_from',
  'server_count',
  'tool_count',
  'tools_sha256',
  'tools',
]);
const TOOL_KEYS = new Set(['tool_id', 'server', 'tool', 'description', 'inputSchema', 'annotations']);

/** True when `file` lies inside this repo's datasets/ folder (the bytes are committed). */
export function isCommittedPath(file: string): boolean {
  const rel = relative(DATASETS_DIR, resolve(file));
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
}

export function toolsSha256(tools: ToolRecord[]): string {
  return sha256Hex(canonicalJson(tools));
}

/** Serialize a frozen corpus file (deterministic bytes). */
export function serializeFrozen(meta: {
  version: string;
  name: string;
  license: string;
  attribution?: string;
  generated_from: { [k: string]: JsonValue };
  tools: ToolRecord[];
}): string {
  const file: FrozenCorpusFile = {
    format: CORPUS_FORMAT,
    format_version: CORPUS_FORMAT_VERSION,
    version: meta.version,
    name: meta.name,
    license: meta.license,
    ...(meta.attribution ? { attribution: meta.attribution } : {}),
    generated_from: meta.generated_from,
    server_count: new Set(meta.tools.map((t) => t.server)).size,
    tool_count: meta.tools.length,
    tools_sha256: toolsSha256(meta.tools),
    tools: meta.tools,
  };
  return prettyCanonical(file);
}

export function isFrozenShape(data: unknown): boolean {
  return isPlainObject(data) && data.format === CORPUS_FORMAT;
}

/** Validate a parsed frozen corpus file and return the Corpus. */
export function loadFrozen(file: string, data: unknown): Corpus {
  if (!isPlainObject(data)) fail(file, '$', `expected an object, got ${typeName(data)}`);
  if (data.format !== CORPUS_FORMAT)
    fail(file, '$.format', `expected ${JSON.stringify(CORPUS_FORMAT)}, got ${JSON.stringify(data.format)}`);
  if (data.format_version !== CORPUS_FORMAT_VERSION)
    fail(
      file,
      '$.format_version',
      `unsupported format_version ${JSON.stringify(data.format_version)} (this build reads ${CORPUS_FORMAT_VERSION})`,
    );
  for (const k of Object.keys(data)) if (!TOP_KEYS.has(k)) fail(file, jp('$', k), `unknown key (allowed: ${[...TOP_KEYS].join(', ')})`);
  const version = data.version;
  if (typeof version !== 'string' || !VERSION_RE.test(version))
    fail(file, '$.version', `version must match ${VERSION_RE}, got ${JSON.stringify(version)}`);
  const base = basename(file);
  if (base.endsWith('.tools.json') && base !== `${version}.tools.json`)
    fail(file, '$.version', `version ${JSON.stringify(version)} does not match the file name (expected ${version}.tools.json)`);
  for (const k of ['name', 'license'] as const) {
    if (typeof data[k] !== 'string' || (data[k] as string).trim() === '') fail(file, jp('$', k), `${k} must be a non-empty string`);
  }
  if (data.attribution !== undefined && typeof data.attribution !== 'string') fail(file, '$.attribution', 'attribution must be a string');
  if (!isPlainObject(data.generated_from)) fail(file, '$.generated_from', `expected an object, got ${typeName(data.generated_from)}`);
  if (!Array.isArray(data.tools)) fail(file, '$.tools', `expected an array, got ${typeName(data.tools)}`);
  if (data.tools.length === 0) fail(file, '$.tools', 'corpus has no tools');
  const items = data.tools.map((row: unknown, i: number) => {
    const path = `$.tools[${i}]`;
    if (!isPlainObject(row)) fail(file, path, `expected an object, got ${typeName(row)}`);
    for (const k of Object.keys(row)) if (!TOOL_KEYS.has(k)) fail(file, jp(path, k), `unknown key (allowed: ${[...TOOL_KEYS].join(', ')})`);
    if (row.tool_id === undefined) fail(file, jp(path, 'tool_id'), 'tool_id is missing');
    return { rec: makeTool(row as never, file, path), path };
  });
  const tools = sortUnique(items, file);
  if (data.tool_count !== tools.length)
    fail(file, '$.tool_count', `header says ${JSON.stringify(data.tool_count)} tools, rows have ${tools.length}`);
  const servers = new Set(tools.map((t) => t.server)).size;
  if (data.server_count !== servers)
    fail(file, '$.server_count', `header says ${JSON.stringify(data.server_count)} servers, rows have ${servers}`);
  const sha = toolsSha256(tools);
  if (data.tools_sha256 !== sha)
    fail(
      file,
      '$.tools_sha256',
      `does not match the tools (expected ${sha}, file says ${JSON.stringify(data.tools_sha256)}); frozen corpora are immutable, freeze a new version instead of editing`,
    );
  return {
    id: version,
    name: data.name as string,
    version,
    license: data.license as string,
    ...(typeof data.attribution === 'string' ? { attribution: data.attribution } : {}),
    committed: isCommittedPath(file),
    format: 'mcpgauge',
    source: file,
    tools,
  };
}
