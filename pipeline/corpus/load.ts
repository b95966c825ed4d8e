/**
 * One entry point for every corpus shape: `loadCorpus(path, {format})` sniffs the shape when
 * format is 'auto' (the default):
 *   folder with tools/ + queries/ parquet shards       -> toolret
 *   JSON array                                          -> livemcptool (upstream marketplace array)
 *   object with format "mcpgauge-corpus"               -> mcpgauge (frozen corpus file)
 *   object with tool_count/server_count + tools        -> livemcptool (flattened)
 *   object with tools[0].tool_id                       -> mcpproxy (v1 without schemas, v2 with)
 *   {tools: [{name, inputSchema}]} or a JSON-RPC response holding it -> tools-list (a raw MCP dump)
 */
import { statSync } from 'node:fs';
import { UserError, type Corpus } from '../types.ts';
import { readJson, isPlainObject, typeName } from './record.ts';
import { isFrozenShape, loadFrozen } from './frozen.ts';
import { isMcpproxyShape, loadMcpproxy } from './mcpproxy.ts';
import { isLiveMcpToolFlatShape, isMarketplaceShape, loadLiveMcpToolFlat, loadLiveMcpToolMarketplace } from './livemcptool.ts';
import { isToolsListShape, loadToolsList } from './toolslist.ts';

export const CORPUS_FORMATS = ['auto', 'mcpgauge', 'mcpproxy', 'livemcptool', 'toolret', 'tools-list'] as const;
export type CorpusFormatOption = (typeof CORPUS_FORMATS)[number];

export interface LoadCorpusOptions {
  format?: CorpusFormatOption;
}

/** Which loader a parsed JSON document needs (undefined = unknown shape). */
export function sniffJson(data: unknown): Exclude<CorpusFormatOption, 'auto' | 'toolret'> | undefined {
  if (isMarketplaceShape(data)) return 'livemcptool';
  if (isFrozenShape(data)) return 'mcpgauge';
  if (isLiveMcpToolFlatShape(data)) return 'livemcptool';
  if (isMcpproxyShape(data)) return 'mcpproxy';
  if (isToolsListShape(data)) return 'tools-list';
  return undefined;
}

export async function loadCorpus(path: string, opts: LoadCorpusOptions = {}): Promise<Corpus> {
  const format = opts.format ?? 'auto';
  if (!(CORPUS_FORMATS as readonly string[]).includes(format)) throw new UserError(`unknown corpus format ${JSON.stringify(format)} (expected one of ${CORPUS_FORMATS.join(', ')})`);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw new UserError(`${path}: cannot read corpus (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (isDir || format === 'toolret') {
    if (format !== 'auto' && format !== 'toolret') throw new UserError(`${path}: is a folder; only the toolret format is a folder`);
    // hyparquet only for ToolRet folders (lazy: every other command and corpus shape skips it)
    const { loadToolRet } = await import('./toolret.ts');
    return (await loadToolRet(path)).corpus;
  }
  if (path.endsWith('.parquet')) throw new UserError(`${path}: a single parquet shard is not a corpus; pass the ToolRet folder (with tools/ and queries/)`);
  const data = readJson(path);
  const shape = format === 'auto' ? sniffJson(data) : format;
  switch (shape) {
    case 'mcpgauge':
      return loadFrozen(path, data);
    case 'mcpproxy':
      return loadMcpproxy(path, data);
    case 'livemcptool':
      return Array.isArray(data) ? loadLiveMcpToolMarketplace(path, data).corpus : loadLiveMcpToolFlat(path, data);
    case 'tools-list':
      return loadToolsList(path, data);
    default: {
      const keys = isPlainObject(data) ? `object with keys ${Object.keys(data).slice(0, 8).join(', ') || '(none)'}` : typeName(data);
      throw new UserError(`${path}: $: unknown corpus shape (${keys}); expected a mcpgauge-corpus file, a mcpproxy corpus {tools:[{tool_id,...}]}, LiveMCPTool (flattened or marketplace array), a tools/list dump {tools:[{name,inputSchema}]} or a ToolRet folder`);
    }
  }
}
