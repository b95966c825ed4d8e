/**
 * Retriever `bm25f_tuned`: bm25f (same analyzer, same fields) whose k1, b and field weights are
 * chosen from data by 5-fold cross-validation over the golden set (grid `TUNED_GRID`, 27 points:
 * k1 in {1.2, 0.6, 2.0} x b in {0.75, 0.3, 1.0} x three weight sets: the defaults, description-
 * heavy, and no params field). Without a golden set (the proxy) it is bm25f with the defaults.
 * It answers "how much does tuning BM25F on this golden set buy, measured honestly".
 */
import { createBm25Retriever, type Bm25Options } from './bm25f.ts';
import { DEFAULT_ANALYZER } from './analyzer.ts';
import type { RetrieverEntry, RetrieverOptions } from './types.ts';

const WEIGHT_SETS = [
  undefined,
  { name: 1, name_parts: 1, server: 0.5, description: 2, params: 0.5 },
  { name: 3, name_parts: 2, server: 0.5, description: 1, params: 0 },
];

export const TUNED_GRID: RetrieverOptions[] = (() => {
  const out: RetrieverOptions[] = [];
  for (const k1 of [1.2, 0.6, 2.0])
    for (const b of [0.75, 0.3, 1.0]) for (const w of WEIGHT_SETS) out.push({ k1, b, ...(w ? { weights: w } : {}) });
  return out;
})();

export const bm25fTunedRetriever: RetrieverEntry = {
  id: 'bm25f_tuned',
  label: 'BM25F (tuned)',
  description: 'bm25f with k1, b and field weights chosen by 5-fold CV over the golden set',
  create: (opts) => createBm25Retriever(opts as Bm25Options | undefined, DEFAULT_ANALYZER, 'bm25f_tuned'),
  tuning: { grid: TUNED_GRID, describe: 'k1 x b x field weights' },
};
