/**
 * Retriever `bm25`: the naive baseline most proxies ship. Plain BM25 (engine.ts with one field)
 * over the tool DESCRIPTION only, with the plain analyzer `plain-v1`: NFKC, lowercase, runs of
 * Unicode letters/digits as tokens; no stop words, no stemming, no identifier splitting, no
 * name or parameter text. k1 = 1.2, b = 0.75 (the textbook defaults, not tuned).
 */
import { UserError } from '../types.ts';
import { createBm25Engine, termCounts } from './engine.ts';
import type { RetrieverEntry, SyncRetriever } from './types.ts';

export const PLAIN_ANALYZER_ID = 'plain-v1';
const TOKEN_RE = /[\p{L}\p{N}]+/gu;

/** The `plain-v1` analyzer. */
export function plainTokens(text: string): string[] {
  return text ? (text.normalize('NFKC').toLowerCase().match(TOKEN_RE) ?? []) : [];
}

export type PlainBm25Params = { k1: number; b: number; fields: string[] };

export function createPlainBm25Retriever(opts: { k1?: unknown; b?: unknown } = {}): SyncRetriever<PlainBm25Params> {
  const k1 = opts.k1 ?? 1.2;
  const b = opts.b ?? 0.75;
  if (typeof k1 !== 'number' || !Number.isFinite(k1) || k1 < 0)
    throw new UserError(`bm25: k1 must be a finite number >= 0, got ${String(k1)}`);
  if (typeof b !== 'number' || !Number.isFinite(b) || b < 0 || b > 1)
    throw new UserError(`bm25: b must be a number in [0, 1], got ${String(b)}`);
  const engine = createBm25Engine({
    label: 'bm25',
    k1,
    b,
    fields: [{ name: 'description', weight: 1, tokens: (d) => plainTokens(d.description), key: `${PLAIN_ANALYZER_ID}:description` }],
    queryTerms: (q) => termCounts(plainTokens(q)),
    queryKey: `terms:${PLAIN_ANALYZER_ID}`,
  });
  return {
    meta: { id: 'bm25', analyzer: PLAIN_ANALYZER_ID, params: { k1, b, fields: ['description'] } },
    build: engine.build,
    search: engine.search,
  };
}

export const bm25PlainRetriever: RetrieverEntry = {
  id: 'bm25',
  label: 'BM25 (plain)',
  description: 'plain BM25 over the description only, lowercase word tokens, no stemming: the naive baseline',
  create: (opts) => createPlainBm25Retriever(opts as { k1?: unknown; b?: unknown }),
};
