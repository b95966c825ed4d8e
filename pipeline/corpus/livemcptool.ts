/**
 * LiveMCPTool (from LiveMCPBench, ICIP/LiveMCPBench, Apache-2.0), two shapes:
 *
 * 1. Flattened (the normalized mirror, e.g. ../shared/datasets/livemcptool/tools.json):
 *    `{version, source: {revision, ...}, server_count, tool_count, tools: [{server, tool,
 *    description, inputSchema?}]}`. The header counts must equal the rows (drift = error).
 *
 * 2. Upstream marketplace array (`tools/tools.json` in the dataset repo). Assumption, inferred
 *    from the research note, the mirror's ATTRIBUTION.md and the public LiveMCPBench repo: a
 *    top-level array of marketplace entries `{name, description, web, config, category, tools}`
 *    where `tools` maps a server name to `{server_name, version, tools: [{name, description,
 *    inputSchema, annotations}]}`. One row per (map key, tool name); a null description becomes
 *    ""; `annotations` are dropped so both shapes of the same revision load to identical tools
 *    (the normalized mirror drops them too). Byte-identical duplicate rows are kept once and
 *    counted; duplicates that differ are an error. Entries without a `tools` map are skipped and
 *    counted (servers that failed to list upstream).
 */
import { dirname } from 'node:path';
import { manifestRevision } from './manifest.ts';
import { canonicalJson } from './canonical.ts';
import { fail, isPlainObject, jp, makeTool, sortUnique, typeName } from './record.ts';
import { isCommittedPath } from './frozen.ts';
import type { Corpus, ToolRecord } from '../types.ts';

export const LIVEMCPTOOL_REPO = 'ICIP/LiveMCPBench';
export const LIVEMCPTOOL_REVISION = 'ddea2d24196638bc4026c4cb891f679d0357bfd0';
export const LIVEMCPTOOL_LICENSE = 'Apache-2.0';
export const LIVEMCPTOOL_ATTRIBUTION = 'LiveMCPTool corpus from LiveMCPBench (ICIP/LiveMCPBench, icip-cas), arXiv:2508.01780';

export interface LiveMcpToolLoadInfo {
  shape: 'flattened' | 'marketplace';
  duplicate_rows_collapsed: number;
  entries_without_tools: number;
}

export function isLiveMcpToolFlatShape(data: unknown): boolean {
  return isPlainObject(data) && Array.isArray(data.tools) && ('tool_count' in data || 'server_count' in data);
}

export function isMarketplaceShape(data: unknown): boolean {
  return Array.isArray(data);
}

function describe(file: string, tools: ToolRecord[], version: string): Corpus {
  return {
    id: 'livemcptool',
    name: 'LiveMCPTool (LiveMCPBench)',
    version,
    license: LIVEMCPTOOL_LICENSE,
    attribution: LIVEMCPTOOL_ATTRIBUTION,
    committed: isCommittedPath(file),
    format: 'livemcptool',
    source: file,
    tools,
  };
}

export function loadLiveMcpToolFlat(file: string, data: unknown): Corpus {
  if (!isPlainObject(data)) fail(file, '$', `expected an object, got ${typeName(data)}`);
  if (typeof data.version !== 'string' || data.version.trim() === '')
    fail(file, '$.version', `version must be a non-empty string, got ${JSON.stringify(data.version)}`);
  if (!Array.isArray(data.tools)) fail(file, '$.tools', `expected an array, got ${typeName(data.tools)}`);
  if (data.tools.length === 0) fail(file, '$.tools', 'corpus has no tools');
  const items = data.tools.map((row: unknown, i: number) => {
    const path = `$.tools[${i}]`;
    if (!isPlainObject(row)) fail(file, path, `expected an object, got ${typeName(row)}`);
    return {
      rec: makeTool({ server: row.server, tool: row.tool, description: row.description, inputSchema: row.inputSchema }, file, path, {
        descriptionNullAsEmpty: true,
      }),
      path,
    };
  });
  const tools = sortUnique(items, file);
  const servers = new Set(tools.map((t) => t.server)).size;
  if (data.tool_count !== tools.length)
    fail(file, '$.tool_count', `header says ${JSON.stringify(data.tool_count)} tools, rows have ${tools.length}`);
  if (data.server_count !== servers)
    fail(file, '$.server_count', `header says ${JSON.stringify(data.server_count)} servers, rows have ${servers}`);
  if (isPlainObject(data.source) && data.source.revision !== undefined && typeof data.source.revision !== 'string')
    fail(file, '$.source.revision', 'revision must be a string');
  return describe(file, tools, data.version);
}

export function loadLiveMcpToolMarketplace(
  file: string,
  data: unknown,
  opts: { revision?: string } = {},
): { corpus: Corpus; info: LiveMcpToolLoadInfo } {
  if (!Array.isArray(data)) fail(file, '$', `expected the marketplace array, got ${typeName(data)}`);
  const byId = new Map<string, { rec: ToolRecord; path: string; canon: string }>();
  let collapsed = 0;
  let noTools = 0;
  data.forEach((entry: unknown, i: number) => {
    const ep = `$[${i}]`;
    if (!isPlainObject(entry)) fail(file, ep, `expected a marketplace entry object, got ${typeName(entry)}`);
    if (entry.tools === undefined || entry.tools === null) {
      noTools++;
      return;
    }
    if (!isPlainObject(entry.tools))
      fail(file, jp(ep, 'tools'), `expected an object mapping server name to {tools: [...]}, got ${typeName(entry.tools)}`);
    for (const [server, block] of Object.entries(entry.tools)) {
      const sp = jp(jp(ep, 'tools'), server);
      if (!isPlainObject(block)) fail(file, sp, `expected {tools: [...]}, got ${typeName(block)}`);
      if (!Array.isArray(block.tools)) fail(file, jp(sp, 'tools'), `expected an array, got ${typeName(block.tools)}`);
      block.tools.forEach((t: unknown, j: number) => {
        const tp = `${jp(sp, 'tools')}[${j}]`;
        if (!isPlainObject(t)) fail(file, tp, `expected a tool object, got ${typeName(t)}`);
        const rec = makeTool({ server, tool: t.name, description: t.description, inputSchema: t.inputSchema }, file, tp, {
          descriptionNullAsEmpty: true,
        });
        const canon = canonicalJson(rec);
        const prev = byId.get(rec.tool_id);
        if (prev) {
          if (prev.canon !== canon) fail(file, tp, `duplicate tool ${JSON.stringify(rec.tool_id)} differs from the one at ${prev.path}`);
          collapsed++;
          return;
        }
        byId.set(rec.tool_id, { rec, path: tp, canon });
      });
    }
  });
  if (byId.size === 0) fail(file, '$', 'marketplace array holds no tools');
  const tools = sortUnique([...byId.values()], file);
  const rev = opts.revision ?? manifestRevision(dirname(file), LIVEMCPTOOL_REPO);
  const version = `livemcptool@${rev ? rev.slice(0, 8) : 'unknown-revision'}`;
  return {
    corpus: describe(file, tools, version),
    info: { shape: 'marketplace', duplicate_rows_collapsed: collapsed, entries_without_tools: noTools },
  };
}
