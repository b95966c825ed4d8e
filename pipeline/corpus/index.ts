/** Public API of the corpus layer (loaders, golden sets, freeze, fetch, hygiene). */
export { loadCorpus, sniffJson, CORPUS_FORMATS, type CorpusFormatOption, type LoadCorpusOptions } from './load.ts';
export { CORPUS_FORMAT_LIST, type CorpusFormat, type CorpusFormatName } from './formats/index.ts';
export { loadGolden, parseGolden, validateGolden, GOLDEN_FORMAT } from './golden.ts';
export {
  loadFrozen,
  serializeFrozen,
  toolsSha256,
  isCommittedPath,
  CORPUS_FORMAT,
  CORPUS_FORMAT_VERSION,
  type FrozenCorpusFile,
} from './frozen.ts';
export { loadMcpproxy } from './mcpproxy.ts';
export {
  loadLiveMcpToolFlat,
  loadLiveMcpToolMarketplace,
  LIVEMCPTOOL_REPO,
  LIVEMCPTOOL_REVISION,
  type LiveMcpToolLoadInfo,
} from './livemcptool.ts';
export {
  loadToolRet,
  resolveToolRetDir,
  TOOLRET_TOOLS_REPO,
  TOOLRET_TOOLS_REVISION,
  TOOLRET_QUERIES_REPO,
  TOOLRET_QUERIES_REVISION,
  type ToolRetLoad,
  type ToolRetLoadInfo,
} from './toolret.ts';
export { freezeCorpus, nextFreeVersion, NPM4_SERVERS, type FreezeOptions, type FreezeResult } from './freeze.ts';
export { fetchCorpora, DEFAULT_CACHE_DIR, type FetchOptions, type FetchOutcome, type DatasetName } from './fetch.ts';
export { readManifest, type FetchManifest } from './manifest.ts';
export {
  corpusHygiene,
  type CorpusHygiene,
  type DegenerateDescriptions,
  type DuplicateSchemas,
  type SizeStats,
  type SchemaGroup,
  type HygieneOptions,
} from './hygiene.ts';
