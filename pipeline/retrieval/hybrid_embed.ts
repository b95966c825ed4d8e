/**
 * Retriever `hybrid_embed`: reciprocal-rank fusion (rrf.ts) of `bm25f` and `embed`, each
 * searched RRF_DEPTH deep. `k` (default 60) is chosen by 5-fold cross-validation in a scored
 * row (grid HYBRID_EMBED_GRID). Needs `--embed-url` like `embed`.
 */
import type { IndexDoc } from '../types.ts';
import { createBm25Retriever } from './bm25f.ts';
import { createEmbedRetriever, embedRetriever, type EmbedOptions } from './embed.ts';
import { checkRrfK, fuseRankings, RRF_DEPTH } from './rrf.ts';
import type { SearchHit } from './engine.ts';
import type { RetrieverEntry } from './types.ts';

export const HYBRID_EMBED_GRID: { k: number }[] = [{ k: 60 }, { k: 20 }, { k: 5 }];

export function createHybridEmbedRetriever(opts: EmbedOptions & { k?: unknown } = {}) {
  const k = checkRrfK(opts.k ?? 60, 'hybrid_embed');
  const lex = createBm25Retriever();
  const dense = createEmbedRetriever(opts);
  return {
    meta: {
      id: 'hybrid_embed',
      analyzer: `${lex.meta.analyzer} | ${dense.meta.analyzer}`,
      params: {
        members: ['bm25f', 'embed'],
        k,
        depth: RRF_DEPTH,
        member_params: { bm25f: JSON.parse(JSON.stringify(lex.meta.params)), embed: dense.meta.params },
      },
    },
    async build(docs: IndexDoc[]): Promise<void> {
      lex.build(docs);
      await dense.build(docs);
    },
    async search(query: string, limit: number): Promise<SearchHit[]> {
      const depth = Math.max(RRF_DEPTH, limit);
      return fuseRankings([lex.search(query, depth), await dense.search(query, depth)], k, limit);
    },
  };
}

export const hybridEmbedRetriever: RetrieverEntry = {
  id: 'hybrid_embed',
  label: 'RRF (bm25f + embed)',
  description: 'reciprocal-rank fusion of bm25f and embed (k chosen by 5-fold CV); needs --embed-url',
  create: (opts) => createHybridEmbedRetriever(opts as EmbedOptions & { k?: unknown }),
  unavailable: (opts) => embedRetriever.unavailable!(opts),
  tuning: { grid: HYBRID_EMBED_GRID, describe: 'k' },
};
