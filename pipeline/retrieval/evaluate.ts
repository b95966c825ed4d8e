/**
 * Score one retriever on one arm's index docs against a golden set, with its costs:
 *
 * - untuned retriever: build with its options, search every golden query, score the rankings
 *   (scoreRankings: the rankings in hand are scored directly, once);
 * - retriever with a tuning grid (entry.tuning): 5-fold cross-validation (cv.ts); the metrics
 *   and CIs are over the HELD-OUT rankings only, and the row carries the per-fold choices, the
 *   mean held-out-fold recall@5 and `chosen_all`; the meta/costs are those of `chosen_all`.
 * - costs, measured in this process: build wall time (median of 3 builds up to 5,000 docs, else
 *   one) and per-query search wall time (p50/p99 over the golden queries, one search each, after
 *   a first pass over every query warmed the code: the pass whose rankings are scored, or for a
 *   tuned retriever the cross-validation, which searched every query with the same code).
 */
import type { GoldenSet, IndexDoc } from '../types.ts';
import { crossValidate, type CvResult } from './cv.ts';
import { scoreRankings, DEPTH, type QueryResult, type RetrievalSummary } from './metrics.ts';
import { percentile } from '../util/stats.ts';
import type { Retriever, RetrieverEntry, RetrieverOptions } from './types.ts';

/** builds timed per retriever when the corpus has at most BUILD_RUNS_MAX_DOCS docs */
export const BUILD_RUNS = 3;
export const BUILD_RUNS_MAX_DOCS = 5000;

export type Tuning = Omit<CvResult<RetrieverOptions>, 'rankings'>;

export interface RetrievalCosts {
  build_ms: number;
  query_p50_ms: number;
  query_p99_ms: number;
  queries: number;
}

export interface EvaluatedRetriever {
  retriever: Retriever;
  perQuery: QueryResult[];
  summary: RetrievalSummary;
  /** query text -> ranking (`depth` deep), for the simulated responses */
  rankings: Map<string, string[]>;
  costs: RetrievalCosts;
  tuning?: Tuning;
}

export async function evaluateRetriever(
  entry: RetrieverEntry,
  opts: RetrieverOptions | undefined,
  docs: IndexDoc[],
  golden: GoldenSet,
  cfg: { depth: number; bootstrap: { iterations: number; seed: number } },
): Promise<EvaluatedRetriever> {
  const depth = Math.max(DEPTH, cfg.depth);
  let tuning: Tuning | undefined;
  let heldOut: string[][] | undefined;
  let chosen = opts;
  if (entry.tuning && entry.tuning.grid.length > 1) {
    const cv = await crossValidate(entry.tuning.grid, (g) => entry.create({ ...opts, ...g }), docs, golden, { depth });
    const { rankings, ...rest } = cv;
    tuning = rest;
    heldOut = rankings;
    chosen = { ...opts, ...cv.chosen_all };
  }
  const retriever = entry.create(chosen);
  // build time: median of BUILD_RUNS builds on small corpora (the first one pays for cold
  // caches and JIT), one build on large ones
  const builds: number[] = [];
  for (let i = 0; i < (docs.length <= BUILD_RUNS_MAX_DOCS ? BUILD_RUNS : 1); i++) {
    const t0 = performance.now();
    await retriever.build(docs);
    builds.push(performance.now() - t0);
  }
  const build_ms = percentile(builds, 50);
  const live: string[][] = [];
  if (!heldOut) for (const q of golden.queries) live.push((await retriever.search(q.query, depth)).map((h) => h.tool_id));
  const lat: number[] = [];
  for (const q of golden.queries) {
    const t = performance.now();
    await retriever.search(q.query, depth);
    lat.push(performance.now() - t);
  }
  const used = heldOut ?? live;
  const rankings = new Map<string, string[]>();
  golden.queries.forEach((q, i) => rankings.set(q.query, used[i]));
  const res = scoreRankings(used, golden, { k: DEPTH, bootstrap: cfg.bootstrap });
  return {
    retriever,
    perQuery: res.perQuery,
    summary: res.summary,
    rankings,
    costs: { build_ms, query_p50_ms: percentile(lat, 50), query_p99_ms: percentile(lat, 99), queries: lat.length },
    ...(tuning ? { tuning } : {}),
  };
}
