/**
 * One entry point for every corpus shape: `loadCorpus(path, {format})`. The formats are the
 * registry `formats/index.ts` (one file each, `{format, sniff, load}`); with format 'auto' (the
 * default) a folder goes to the first folder format that claims it (ToolRet), a file is read as
 * JSON and goes to the first file format whose sniff matches, in list order:
 *   object with format "mcpgauge-corpus"               -> mcpgauge (frozen corpus file)
 *   object with tools[0].tool_id                       -> mcpproxy (v1 without schemas, v2 with)
 *   JSON array, or tool_count/server_count + tools     -> livemcptool (marketplace array / flattened)
 *   {tools: [{name, inputSchema}]} or a JSON-RPC response holding it -> tools-list (a raw MCP dump)
 */
import { statSync } from 'node:fs';
import { UserError, type Corpus } from '../types.ts';
import { readJson, isPlainObject, typeName } from './record.ts';
import { CORPUS_FORMAT_LIST, FILE_FORMATS, FOLDER_FORMATS, corpusFormat, type CorpusFormatName } from './formats/index.ts';

export const CORPUS_FORMATS: readonly CorpusFormatOption[] = ['auto', ...CORPUS_FORMAT_LIST.map((f) => f.format)];
export type CorpusFormatOption = 'auto' | CorpusFormatName;

export interface LoadCorpusOptions {
  format?: CorpusFormatOption;
}

/** Which file format a parsed JSON document has (undefined = unknown shape). */
export function sniffJson(data: unknown): (typeof FILE_FORMATS)[number]['format'] | undefined {
  return FILE_FORMATS.find((f) => f.sniff(data))?.format;
}

/** "a, b, c or d" */
const orList = (xs: readonly string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}` : xs.join(''));

export async function loadCorpus(path: string, opts: LoadCorpusOptions = {}): Promise<Corpus> {
  const format = opts.format ?? 'auto';
  if (!CORPUS_FORMATS.includes(format))
    throw new UserError(`unknown corpus format ${JSON.stringify(format)} (expected one of ${CORPUS_FORMATS.join(', ')})`);
  const chosen = format === 'auto' ? undefined : corpusFormat(format);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw new UserError(`${path}: cannot read corpus (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (isDir || chosen?.input === 'folder') {
    if (chosen && chosen.input !== 'folder')
      throw new UserError(`${path}: is a folder; only the ${FOLDER_FORMATS.map((f) => f.format).join(', ')} format is a folder`);
    const folder = chosen ?? FOLDER_FORMATS.find((f) => f.sniff(path));
    if (folder?.input === 'folder') return folder.load(path);
    throw new UserError(`${path}: is a folder no corpus format reads (folder formats: ${FOLDER_FORMATS.map((f) => f.format).join(', ')})`);
  }
  for (const f of FOLDER_FORMATS) {
    const why = f.refuseFile?.(path);
    if (why) throw new UserError(`${path}: ${why}`);
  }
  const data = readJson(path);
  const file = chosen ?? FILE_FORMATS.find((f) => f.sniff(data));
  if (file?.input === 'file') return file.load(path, data);
  const keys = isPlainObject(data) ? `object with keys ${Object.keys(data).slice(0, 8).join(', ') || '(none)'}` : typeName(data);
  throw new UserError(
    `${path}: $: unknown corpus shape (${keys}); expected ${orList([...FILE_FORMATS, ...FOLDER_FORMATS].map((f) => f.expects))}`,
  );
}
