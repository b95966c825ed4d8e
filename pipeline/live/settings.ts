/** Stages 1 and 2 of the live stage: the options resolved and validated, then the corpus and golden set loaded. */
import { UserError, type Corpus, type GoldenSet } from '../types.ts';
import { isTokenizerName } from '../tokens/tokenizer.ts';
import { loadCorpus } from '../corpus/load.ts';
import { loadGolden } from '../corpus/golden.ts';
import type { Detail } from '../report/index.ts';
import { DEFAULT_CORPUS, DEFAULT_GOLDEN, TOKENIZER_NAMES } from '../constants.ts';
import type { ArgNames, LiveOptions } from './types.ts';

function posInt(v: unknown, name: string, min: number, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
    throw new UserError(`${name} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return v;
}

/** Resolved, validated live options (stage 1). */
export interface LiveSettings {
  discoveryTool: string;
  argNames: ArgNames;
  limit: number;
  runs: number;
  warmup: number;
  callTimeoutMs: number;
  maxQueries?: number;
  wantDetails: Detail[];
  tokenizerNames: string[];
  corpusFile: string;
  goldenFile: string;
  style: 'auto' | 'discovery' | 'passthrough';
  /** who set a non-auto style (e.g. a preset) */
  styleSource: string;
  allowVersionMismatch: boolean;
  noGolden: boolean;
  maxErrorRate: number;
}

function maxErrorRate(v: number | undefined): number {
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
    throw new UserError(`--max-error-rate must be a number in 0..1, got ${JSON.stringify(v)}`);
  return v;
}

export function resolveSettings(opts: LiveOptions): LiveSettings {
  const discoveryTool = opts.discoveryTool ?? 'retrieve_tools';
  if (!discoveryTool.trim()) throw new UserError('--discovery-tool: empty name');
  const argNames: ArgNames = {
    query: opts.argNames?.query ?? 'query',
    limit: opts.argNames?.limit === undefined ? 'limit' : opts.argNames.limit,
    detail: opts.argNames?.detail === undefined ? 'detail' : opts.argNames.detail,
  };
  if (!argNames.query) throw new UserError('--query-arg: empty name');
  const wantDetails: Detail[] = opts.details ?? ['full', 'compact'];
  for (const d of wantDetails)
    if (d !== 'full' && d !== 'compact') throw new UserError(`detail must be "full" or "compact", got ${JSON.stringify(d)}`);
  // names checked now; the encodings are loaded after the calls (a run killed early never pays for them)
  const tokenizerNames = [...new Set(opts.tokenizers ?? [...TOKENIZER_NAMES])];
  for (const n of tokenizerNames)
    if (!isTokenizerName(n)) throw new UserError(`unknown tokenizer "${n}" (valid: ${TOKENIZER_NAMES.join(', ')})`);
  if (tokenizerNames.length === 0) throw new UserError(`no tokenizer given (valid: ${TOKENIZER_NAMES.join(', ')})`);
  return {
    discoveryTool,
    argNames,
    limit: posInt(opts.limit, '--limit', 1, 10),
    runs: posInt(opts.runs, '--runs', 1, 3),
    warmup: posInt(opts.warmup, '--warmup', 0, 2),
    callTimeoutMs: posInt(opts.callTimeoutMs, '--call-timeout', 1, 30_000),
    maxQueries: opts.maxQueries === undefined ? undefined : posInt(opts.maxQueries, '--live-queries', 1, 0),
    wantDetails,
    tokenizerNames,
    corpusFile: opts.corpusFile ?? DEFAULT_CORPUS,
    goldenFile: opts.goldenFile ?? DEFAULT_GOLDEN,
    style: opts.style ?? 'auto',
    styleSource: opts.styleSource ?? '--style',
    allowVersionMismatch: opts.allowVersionMismatch === true,
    noGolden: opts.noGolden === true,
    maxErrorRate: maxErrorRate(opts.maxErrorRate),
  };
}

/** Stage 2: corpus + golden set, validated before any process starts. */
export async function loadQueries(s: LiveSettings): Promise<{ corpus: Corpus; golden: GoldenSet }> {
  const corpus = await loadCorpus(s.corpusFile);
  if (s.noGolden) return { corpus, golden: { corpus_version: corpus.version, queries: [] } };
  let golden = await loadGolden(s.goldenFile, corpus, { allowCorpusVersionMismatch: s.allowVersionMismatch });
  if (s.maxQueries !== undefined && s.maxQueries < golden.queries.length)
    golden = { ...golden, queries: golden.queries.slice(0, s.maxQueries) };
  return { corpus, golden };
}
