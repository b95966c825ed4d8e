/**
 * Choosing a retriever's data-driven parameters without scoring on the data they were chosen
 * on: k-fold cross-validation over the golden queries.
 *
 * - Folds: query id -> fold = first 4 bytes (big-endian uint32) of sha256(`${seed}:${id}`) mod
 *   `folds` (default 5 folds, seed CV_SEED): deterministic, independent of query order.
 * - Every grid point is built once on the docs and searched for every query.
 * - For each fold f: the grid point with the best mean OBJECTIVE (recall@5) on the queries NOT in
 *   f is chosen (ties: higher MRR, then the earlier grid point, so the defaults win a tie); the
 *   queries in f get that grid point's rankings. Every query is thus scored by parameters chosen
 *   without it, and the report's metrics/CIs are computed over these held-out rankings only.
 * - Reported: per fold the size, chosen parameters, training score (for transparency, never as
 *   the result) and held-out score; the mean of the per-fold held-out scores; and `chosen_all`,
 *   the grid point the same rule picks on all queries (what a deployment would use; its score on
 *   the same queries is not reported).
 */
import { createHash } from 'node:crypto';
import type { GoldenSet, IndexDoc } from '../types.ts';
import { UserError } from '../types.ts';
import { queryScorer, DEPTH } from './metrics.ts';
import { withSearchMemo } from './search-memo.ts';
import { mean } from '../util/stats.ts';

export const CV_FOLDS = 5;
export const CV_SEED = 11;
export const CV_OBJECTIVE = 'recall_at_5';

export function foldOf(queryId: string, seed: number = CV_SEED, folds: number = CV_FOLDS): number {
  return createHash('sha256').update(`${seed}:${queryId}`).digest().readUInt32BE(0) % folds;
}

/** What cross-validation needs of a retriever (sync or async build/search). */
export interface Searchable {
  build(docs: IndexDoc[]): void | Promise<void>;
  search(query: string, k: number): { tool_id: string }[] | Promise<{ tool_id: string }[]>;
}

export interface CvFold<O> {
  fold: number;
  queries: number;
  chosen: O;
  train_recall_at_5: number;
  heldout_recall_at_5: number;
}

export interface CvResult<O> {
  method: string;
  objective: string;
  folds: number;
  seed: number;
  grid_size: number;
  per_fold: CvFold<O>[];
  /** mean over folds of the held-out recall@5 of each fold */
  mean_heldout_recall_at_5: number;
  chosen_all: O;
  /** per golden query (golden order): the held-out ranking, `depth` deep */
  rankings: string[][];
}

export async function crossValidate<O>(
  grid: readonly O[],
  create: (opts: O) => Searchable,
  docs: IndexDoc[],
  golden: GoldenSet,
  opts: { depth?: number; folds?: number; seed?: number } = {},
): Promise<CvResult<O>> {
  if (grid.length === 0) throw new UserError('crossValidate: empty grid');
  const folds = opts.folds ?? CV_FOLDS;
  const seed = opts.seed ?? CV_SEED;
  const depth = Math.max(DEPTH, opts.depth ?? DEPTH);
  const qs = golden.queries;
  const fold = qs.map((q) => foldOf(q.id, seed, folds));
  // per grid point: rankings and per-query (recall@5, rr); members shared by grid points are
  // searched once per query (search-memo.ts), each query's labels are checked once
  const scorers = qs.map((q) => queryScorer(q.labels));
  const runs: { rankings: string[][]; r5: number[]; rr: number[] }[] = [];
  await withSearchMemo(async () => {
    for (const g of grid) {
      const r = create(g);
      await r.build(docs);
      const rankings: string[][] = [];
      const r5: number[] = [];
      const rr: number[] = [];
      for (let i = 0; i < qs.length; i++) {
        const ids = (await r.search(qs[i].query, depth)).map((h) => h.tool_id);
        rankings.push(ids);
        const s = scorers[i](ids.slice(0, DEPTH));
        r5.push(s.recall_at_5);
        rr.push(s.rr);
      }
      runs.push({ rankings, r5, rr });
    }
  });
  const pick = (keep: (i: number) => boolean): number => {
    let best = 0;
    let bestKey: [number, number] = [-1, -1];
    runs.forEach((run, gi) => {
      const idx = qs.map((_, i) => i).filter(keep);
      const key: [number, number] = [mean(idx.map((i) => run.r5[i])), mean(idx.map((i) => run.rr[i]))];
      if (key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
        best = gi;
        bestKey = key;
      }
    });
    return best;
  };
  const rankings: string[][] = new Array(qs.length);
  const perFold: CvFold<O>[] = [];
  for (let f = 0; f < folds; f++) {
    const held = qs.map((_, i) => i).filter((i) => fold[i] === f);
    if (held.length === 0) continue;
    const gi = pick((i) => fold[i] !== f);
    for (const i of held) rankings[i] = runs[gi].rankings[i];
    const train = qs.map((_, i) => i).filter((i) => fold[i] !== f);
    perFold.push({
      fold: f,
      queries: held.length,
      chosen: grid[gi],
      train_recall_at_5: mean(train.map((i) => runs[gi].r5[i])),
      heldout_recall_at_5: mean(held.map((i) => runs[gi].r5[i])),
    });
  }
  return {
    method: `${folds}-fold cross-validation over the golden queries (fold = sha256("${seed}:" + query id) mod ${folds})`,
    objective: CV_OBJECTIVE,
    folds,
    seed,
    grid_size: grid.length,
    per_fold: perFold,
    mean_heldout_recall_at_5: mean(perFold.map((f) => f.heldout_recall_at_5)),
    chosen_all: grid[pick(() => true)],
    rankings,
  };
}
