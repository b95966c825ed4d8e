/**
 * The public face of pipeline/retrieval/: other folders import from here only (the layer check,
 * scripts/lib/layers.mjs `faceViolations`, fails an import of an inner file). Inside the folder,
 * files import each other directly; tests may reach any file.
 */
export { RETRIEVERS, DEFAULT_RETRIEVER_ID, retrieverIds, getRetrieverEntry, createRetriever, resolveRetrieverIds } from './registry.ts';
export { scoreGolden, scoreRankings, scoreQuery, SUMMARY_METRICS } from './metrics.ts';
export type {
  QueryMetrics,
  QueryScore,
  QueryResult,
  SummaryMetric,
  MetricFigure,
  RetrievalSummary,
  ScoreGoldenOptions,
} from './metrics.ts';
export { evaluateRetriever } from './evaluate.ts';
export type { RetrievalCosts, EvaluatedRetriever } from './evaluate.ts';
export { pairedDelta } from './compare.ts';
export type { PairedDelta } from './compare.ts';
export { EMBED_KEY_ENV } from './embed_client.ts';
export type { RetrieverMeta, SearchHit, Retriever, SyncRetriever, RetrieverOptions, RetrieverEntry } from './types.ts';
