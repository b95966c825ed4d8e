/**
 * Retriever `bm25f_snowball`: bm25f (same fields, weights, k1, b, same analyzer steps 1-5) with
 * step 6, the hand-written light stemmer, replaced by the Snowball English (Porter2) stemmer of
 * the npm package `porter2`.
 *
 * Why `porter2` (checked on the npm registry when this was written): it implements Porter2,
 * which IS the Snowball English algorithm, is MIT, has no dependencies, ships types, had a
 * release in 2026 and runs on Node 20 (plain CommonJS, no engines floor needed). Compared:
 * `wink-porter2-stemmer` (MIT, Porter2, last release 2025, fine but slower per its author's and
 * porter2's benchmarks), `snowball-stemmers` (ISC, all Snowball languages from generated code,
 * last release 2024-12, heavier), `@orama/stemmers` (Apache-2.0, Node >= 20, many languages,
 * tied to Orama's release train), `stemmer` (MIT, original Porter 1980, not Porter2),
 * `natural` (a large NLP toolkit for one function).
 */
import { createAnalyzer } from './analyzer.ts';
import { createBm25Retriever, type Bm25Options } from './bm25f.ts';
import { stem as porter2 } from 'porter2';
import type { RetrieverEntry } from './types.ts';

export const SNOWBALL_ANALYZER = createAnalyzer('mcpgauge-analyzer-v1+porter2', porter2);

export function createSnowballRetriever(opts?: Bm25Options) {
  return createBm25Retriever(opts, SNOWBALL_ANALYZER, 'bm25f_snowball');
}

export const bm25fSnowballRetriever: RetrieverEntry = {
  id: 'bm25f_snowball',
  label: 'BM25F + Snowball',
  description: 'bm25f with the Snowball English (Porter2) stemmer of the npm package porter2 instead of the light stemmer',
  create: (opts) => createSnowballRetriever(opts as Bm25Options | undefined),
};
