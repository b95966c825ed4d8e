/**
 * BM25F retriever over `IndexDoc`s (the offline stage and the reference proxy both use this
 * exact code). Fields and their text, analyzed by `analyzer.ts`:
 *
 *   name        the bare tool name as ONE joined token ("read_text_file" -> readtextfil)
 *   name_parts  the tool name's identifier parts (read, text, fil)
 *   server      the server name (parts + joined form)
 *   description the tool description
 *   params      the arm-supplied parameter text (JSON Schema vocabulary dropped)
 *
 * Scoring (BM25F with one saturation over the weighted, per-field length-normalized tf):
 *
 *   tf~(t,d)  = sum_f  w_f * tf(t,d,f) / (1 - b + b * len_f(d) / avglen_f)
 *   idf(t)    = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
 *   score(d)  = sum_{t in q}  qtf(t) * idf(t) * tf~(t,d) / (k1 + tf~(t,d))
 *
 * len_f(d) is the number of analyzed tokens of field f in d, avglen_f its mean over all docs
 * (a field empty in every doc has a normalizer of 1), df(t) counts docs containing t in any
 * field, qtf(t) is how often the analyzed query holds t. Results: score descending, ties by
 * tool_id ascending (UTF-16 code unit order), docs scoring 0 are not returned.
 *
 * The scoring code is engine.ts (shared with the other lexical retrievers); this file holds
 * the bm25f fields, their default weights and parameter validation. `createBm25Retriever(opts,
 * analyzer)` with another analyzer is how `bm25f_snowball` swaps the stemmer.
 */
import type { IndexDoc } from '../types.ts';
import { UserError } from '../types.ts';
import { DEFAULT_ANALYZER, type Analyzer } from './analyzer.ts';
import { createBm25Engine, termCounts, type FieldSpec } from './engine.ts';
import type { RetrieverEntry, SyncRetriever } from './types.ts';

export type { Retriever, RetrieverMeta, SearchHit } from './types.ts';

export const FIELD_NAMES = ['name', 'name_parts', 'server', 'description', 'params'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
export type FieldWeights = Record<FieldName, number>;

/** A type alias (not an interface) so it is assignable to JSON-object types in the report. */
export type Bm25Params = {
  k1: number;
  b: number;
  weights: FieldWeights;
};

/** Options for `createBm25Retriever`: any subset; `weights` may be partial too. */
export type Bm25Options = Partial<Omit<Bm25Params, 'weights'>> & { weights?: Partial<FieldWeights> };

export const DEFAULT_BM25_PARAMS: Readonly<Bm25Params> = Object.freeze({
  k1: 1.2,
  b: 0.75,
  weights: Object.freeze({ name: 3, name_parts: 2, server: 0.5, description: 1, params: 0.5 }),
});

export interface IndexStats {
  docs: number;
  terms: number;
  postings: number;
  avg_field_length: Record<FieldName, number>;
}

/** The BM25F retriever also reports index statistics. */
export interface Bm25Retriever extends SyncRetriever<Bm25Params> {
  stats(): IndexStats;
}

/** one number per analyzer object, so that field keys of different analyzers never collide */
const analyzerKeys = new WeakMap<Analyzer, number>();
let nextAnalyzerKey = 0;
function analyzerKey(a: Analyzer): string {
  let k = analyzerKeys.get(a);
  if (k === undefined) analyzerKeys.set(a, (k = nextAnalyzerKey++));
  return `${a.id}#${k}`;
}

/**
 * The bm25f fields (FIELD_NAMES order) analyzed by `analyzer`, weighted by `weights`; each field
 * keyed by (analyzer, field), so engines over the same docs share their analysis (engine.ts).
 */
export function bm25fFields(weights: FieldWeights, analyzer: Analyzer = DEFAULT_ANALYZER): FieldSpec[] {
  const tokens: Record<FieldName, (doc: IndexDoc) => string[]> = {
    name: (d) => analyzer.analyzeJoined(d.name),
    name_parts: (d) => analyzer.analyzeParts(d.name),
    server: (d) => analyzer.analyze(d.server),
    description: (d) => analyzer.analyze(d.description),
    params: (d) => analyzer.analyze(d.params, 'params'),
  };
  const ak = analyzerKey(analyzer);
  return FIELD_NAMES.map((f) => ({ name: f, weight: weights[f], tokens: tokens[f], key: `${ak}:${f}` }));
}

export function resolveParams(opts: Bm25Options = {}): Bm25Params {
  const p: Bm25Params = {
    k1: opts.k1 ?? DEFAULT_BM25_PARAMS.k1,
    b: opts.b ?? DEFAULT_BM25_PARAMS.b,
    weights: { ...DEFAULT_BM25_PARAMS.weights, ...(opts.weights ?? {}) },
  };
  if (typeof p.k1 !== 'number' || !Number.isFinite(p.k1) || p.k1 < 0)
    throw new UserError(`bm25: k1 must be a finite number >= 0, got ${String(p.k1)}`);
  if (typeof p.b !== 'number' || !Number.isFinite(p.b) || p.b < 0 || p.b > 1)
    throw new UserError(`bm25: b must be a number in [0, 1], got ${String(p.b)}`);
  for (const k of Object.keys(p.weights)) {
    if (!(FIELD_NAMES as readonly string[]).includes(k))
      throw new UserError(`bm25: unknown field weight "${k}" (fields: ${FIELD_NAMES.join(', ')})`);
  }
  for (const f of FIELD_NAMES) {
    const w = p.weights[f];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0)
      throw new UserError(`bm25: weights.${f} must be a finite number >= 0, got ${String(w)}`);
  }
  if (FIELD_NAMES.every((f) => p.weights[f] === 0)) throw new UserError('bm25: at least one field weight must be > 0');
  return p;
}

export function createBm25Retriever(opts?: Bm25Options, analyzer: Analyzer = DEFAULT_ANALYZER, id = 'bm25f'): Bm25Retriever {
  const params = resolveParams(opts);
  const engine = createBm25Engine({
    label: 'bm25',
    k1: params.k1,
    b: params.b,
    fields: bm25fFields(params.weights, analyzer),
    queryTerms: (q) => termCounts(analyzer.analyze(q)),
    queryKey: `terms:${analyzerKey(analyzer)}`,
  });
  return {
    meta: { id, analyzer: analyzer.id, params },
    build: engine.build,
    search: engine.search,
    stats: () => engine.stats() as IndexStats,
  };
}

/** The registry entry (pipeline/retrieval/registry.ts). Options: k1, b, weights (see Bm25Options). */
export const bm25fRetriever: RetrieverEntry = {
  id: 'bm25f',
  label: 'BM25',
  description: 'BM25F over name, name parts, server, description and parameter text (one saturation)',
  create: (opts) => createBm25Retriever(opts as Bm25Options | undefined),
};
