/**
 * The predecessor's (mcpproxy-go bench) corpus files:
 *   v1 `{version, generated_from, tools: [{tool_id, server, tool, description}]}` (no schemas)
 *   v2 the same plus `schema` on every tool (a non-empty JSON object).
 * A file where some tools carry `schema` and others do not is an error (neither variant).
 * Extra keys are ignored (the predecessor's files carry none, later tooling may add some).
 */
import { basename } from 'node:path';
import { fail, isPlainObject, makeTool, sortUnique, typeName, jp } from './record.ts';
import { isCommittedPath } from './frozen.ts';
import type { Corpus } from '../types.ts';

export function isMcpproxyShape(data: unknown): boolean {
  // not the markers of the formats listed before or after it (frozen: format; LiveMCPTool flat: tool_count/server_count)
  if (!isPlainObject(data) || !Array.isArray(data.tools) || 'format' in data || 'tool_count' in data || 'server_count' in data)
    return false;
  const first = data.tools[0];
  return isPlainObject(first) && 'tool_id' in first;
}

export function loadMcpproxy(file: string, data: unknown): Corpus {
  if (!isPlainObject(data)) fail(file, '$', `expected an object with "tools", got ${typeName(data)}`);
  if (!Array.isArray(data.tools)) fail(file, '$.tools', `expected an array, got ${typeName(data.tools)}`);
  if (data.tools.length === 0) fail(file, '$.tools', 'corpus has no tools');
  if (data.version !== undefined && (typeof data.version !== 'string' || data.version.trim() === ''))
    fail(file, '$.version', `version must be a non-empty string, got ${JSON.stringify(data.version)}`);
  const rows = data.tools as unknown[];
  const withSchema = rows.filter((r) => isPlainObject(r) && r.schema !== undefined).length;
  const v2 = withSchema > 0;
  const items = rows.map((row, i) => {
    const path = `$.tools[${i}]`;
    if (!isPlainObject(row)) fail(file, path, `expected an object, got ${typeName(row)}`);
    if (row.tool_id === undefined) fail(file, jp(path, 'tool_id'), 'tool_id is missing');
    if (v2) {
      if (row.schema === undefined)
        fail(
          file,
          jp(path, 'schema'),
          `schema is missing (${withSchema} of ${rows.length} tools have one: a v2 corpus needs it on every tool)`,
        );
      if (!isPlainObject(row.schema) || Object.keys(row.schema).length === 0)
        fail(file, jp(path, 'schema'), `schema must be a non-empty object, got ${isPlainObject(row.schema) ? '{}' : typeName(row.schema)}`);
    }
    const rec = makeTool(
      { tool_id: row.tool_id, server: row.server, tool: row.tool, description: row.description, inputSchema: row.schema },
      file,
      path,
    );
    return { rec, path };
  });
  const tools = sortUnique(items, file);
  const version = typeof data.version === 'string' ? data.version : basename(file).replace(/\.tools\.json$|\.json$/, '');
  return {
    id: version,
    name: `mcpproxy corpus ${version}`,
    version,
    license: typeof data.license === 'string' ? data.license : 'unstated (predecessor mcpproxy-go corpus file)',
    committed: isCommittedPath(file),
    format: v2 ? 'mcpproxy-v2' : 'mcpproxy-v1',
    source: file,
    tools,
  };
}
