/**
 * Score one retriever on one arm's index docs against a golden set, with its costs:
 *
 * - untuned retriever: build with its options, search every golden query, scoreGolden;
 * - retriever with a tuning grid (entry.tuning): 5-fold cross-validation (cv.ts); the metrics
 *   and CIs are over the HELD-OUT rankings only, and the row carries the per-fold choices, the
 *   mean held-out-fold recall@5 and `chosen_all`; the meta/costs are those of `chosen_all`.
 * - costs, measured in this process: build wall time (one build) and per-query search wall time
 *   (p50/p99 over the golden queries, one search each, after the scoring pass warmed the code).
 */
import type { GoldenSet, IndexDoc } from '../types.ts';
import { crossValidate, type CvResult } from './cv.ts';
import { scoreGolden, DEPTH, type QueryResult, type RetrievalSummary } from './metrics.ts';
import { percentile } from '../util/stats.ts';
import type { Retriever, RetrieverEntry, RetrieverOptions } from './types.ts';

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
  const t0 = performance.now();
  await retriever.build(docs);
  const build_ms = performance.now() - t0;
  const live: string[][] = [];
  for (const q of golden.queries) live.push((await retriever.search(q.query, depth)).map((h) => h.tool_id));
  const lat: number[] = [];
  for (const q of golden.queries) {
    const t = performance.now();
    await retriever.search(q.query, depth);
    lat.push(performance.now() - t);
  }
  const used = heldOut ?? live;
  const rankings = new Map<string, string[]>();
  golden.queries.forEach((q, i) => rankings.set(q.query, used[i]));
  let i = 0;
  const res = await scoreGolden(() => used[i++].slice(0, DEPTH), golden, { bootstrap: cfg.bootstrap });
  return {
    retriever,
    perQuery: res.perQuery,
    summary: res.summary,
    rankings,
    costs: { build_ms, query_p50_ms: percentile(lat, 50), query_p99_ms: percentile(lat, 99), queries: lat.length },
    ...(tuning ? { tuning } : {}),
  };
}
