/**
 * A raw MCP `tools/list` dump: what `curl` (or any client) gets from one server, saved as JSON.
 * Accepted shapes: the result `{tools: [{name, description?, inputSchema, ...}]}` or the whole
 * JSON-RPC response `{jsonrpc: "2.0", id, result: {tools: [...]}}`. The server name is the file
 * name up to its first dot (`memory.tools-list.json` -> `memory`) unless the result carries
 * `_meta["io.modelcontextprotocol/serverInfo"].name` (a 2026-07-28 server). A page with
 * `nextCursor` is refused: one page of a paginated list would be profiled as the whole menu.
 */
import { basename } from 'node:path';
import { fail, isPlainObject, jp, makeTool, sortUnique, typeName } from './record.ts';
import { isCommittedPath } from './frozen.ts';
import type { Corpus } from '../types.ts';

import { META_SERVER_INFO as SERVER_INFO } from '../mcp/protocol.ts';

/** The tools/list result inside `data` (a result or a JSON-RPC response), or undefined. */
function resultOf(data: unknown): { result: Record<string, unknown>; base: string } | undefined {
  if (!isPlainObject(data)) return undefined;
  if (data.jsonrpc === '2.0' && isPlainObject(data.result)) return { result: data.result, base: '$.result' };
  return { result: data, base: '$' };
}

export function isToolsListShape(data: unknown): boolean {
  const r = resultOf(data);
  if (!r || !Array.isArray(r.result.tools) || 'format' in r.result || 'tool_count' in r.result) return false;
  const first = r.result.tools[0];
  return isPlainObject(first) && 'name' in first && !('tool_id' in first);
}

export function loadToolsList(file: string, data: unknown): Corpus {
  const r = resultOf(data);
  if (!r) fail(file, '$', `expected a tools/list result {tools: [...]} or a JSON-RPC response holding one, got ${typeName(data)}`);
  if (isPlainObject(data) && data.jsonrpc === '2.0' && data.error !== undefined)
    fail(file, '$.error', 'the dump is a JSON-RPC error response, not a tools/list result');
  const { result, base } = r;
  if (!Array.isArray(result.tools)) fail(file, jp(base, 'tools'), `expected an array, got ${typeName(result.tools)}`);
  if (result.tools.length === 0) fail(file, jp(base, 'tools'), 'the dump lists no tools');
  if (result.nextCursor !== undefined) {
    fail(
      file,
      jp(base, 'nextCursor'),
      'the dump is one page of a paginated tools/list (it carries nextCursor); save every page\'s tools into one "tools" array',
    );
  }
  const meta = isPlainObject(result._meta) ? result._meta : undefined;
  const info = meta && isPlainObject(meta[SERVER_INFO]) ? meta[SERVER_INFO] : undefined;
  const server = typeof info?.name === 'string' && info.name.trim() !== '' ? info.name : basename(file).split('.')[0];
  const items = (result.tools as unknown[]).map((row, i) => {
    const path = `${jp(base, 'tools')}[${i}]`;
    if (!isPlainObject(row)) fail(file, path, `expected a tool object, got ${typeName(row)}`);
    if (typeof row.name !== 'string') fail(file, jp(path, 'name'), `name must be a string, got ${typeName(row.name)}`);
    if (!isPlainObject(row.inputSchema))
      fail(file, jp(path, 'inputSchema'), `inputSchema must be an object (MCP requires one), got ${typeName(row.inputSchema)}`);
    const rec = makeTool(
      { server, tool: row.name, description: row.description, inputSchema: row.inputSchema, annotations: row.annotations },
      file,
      path,
      { descriptionNullAsEmpty: true },
    );
    return { rec, path };
  });
  const version = basename(file).replace(/\.json$/, '');
  return {
    id: version,
    name: `tools/list dump of ${server}`,
    version,
    license: "unstated (a tools/list dump: the server author's terms apply)",
    committed: isCommittedPath(file),
    format: 'tools-list',
    source: file,
    tools: sortUnique(items, file),
  };
}
