/** `retrieval[]`: schema `$defs` retrieval, metrics, query_ids_sha256, query_row (a row of tables/per_query). */
import type { Figure, JsonValue } from './common.ts';

/** Aggregated retrieval metrics; each a Figure (usually with n and ci95). Extra `^[a-z0-9_]+$` keys allowed. */
export interface RetrievalMetrics {
  recall_at_1: Figure;
  recall_at_3: Figure;
  recall_at_5: Figure;
  recall_at_10: Figure;
  mrr: Figure;
  ndcg_at_10: Figure;
  map: Figure;
  comprehensiveness_at_5: Figure;
  [metric: string]: Figure;
}

export interface QueryRow {
  query_id: string;
  query: string;
  /** 1-based rank of the first relevant (relevance >= 1) tool, null when none retrieved */
  first_relevant_rank: number | null;
  recall_at_1?: number;
  recall_at_3?: number;
  recall_at_5: number;
  recall_at_10?: number;
  /** reciprocal rank */
  rr: number;
  ndcg_at_10: number;
  /** average precision */
  ap: number;
  /** 1 when all gold tools are in the top 5, else 0 */
  comprehensive_at_5?: number;
  /** retrieved tool ids, rank order (usually top 10) */
  top: string[];
  /** gold tool ids (relevance >= 1) */
  gold?: string[];
  /** set when the query failed; metrics are then 0 */
  error?: string;
}

/** A retriever's static meta (pipeline/retrieval/types.ts RetrieverMeta); `id` is a registry id. */
export interface RetrieverInfo {
  id: string;
  analyzer: string;
  params: { [k: string]: JsonValue };
}

export interface RetrievalScored {
  corpus_id: string;
  arm: string;
  retriever: RetrieverInfo;
  golden_version: string;
  query_count: number;
  errors: number;
  metrics: RetrievalMetrics;
  /** sha256 (hex) of the golden query ids, golden order, joined by "\n": which queries were scored (`diff`) */
  query_ids_sha256: string;
  /**
   * one row per golden query: on a report held in memory (the bench's, or one read back with
   * readReport); never in report.json, whose rows are in tables/per_query
   */
  per_query?: QueryRow[];
  /** build wall time and per-query search wall time p50/p99, measured in this run */
  costs?: RetrievalCosts;
  /** cross-validation of the data-chosen parameters (metrics are then over held-out folds only) */
  tuning?: RetrievalTuning;
  /** paired recall@5 difference against the default retriever on the same queries */
  vs_default?: RetrievalVsDefault;
}

export interface RetrievalCosts {
  build_ms: Figure;
  query_p50_ms: Figure;
  query_p99_ms: Figure;
}

export interface RetrievalTuning {
  method: string;
  objective: string;
  folds: number;
  seed: number;
  /** what the grid varies, e.g. "mode x weight x senses" */
  grid: string;
  grid_size: number;
  per_fold: { fold: number; queries: number; chosen: { [k: string]: JsonValue }; train_recall_at_5: number; heldout_recall_at_5: number }[];
  mean_heldout_recall_at_5: number;
  chosen_all: { [k: string]: JsonValue };
}

export interface RetrievalVsDefault {
  retriever: string;
  metric: string;
  delta: number;
  ci95: [number, number];
  ci_half_width: number;
  beats_by_more_than_half_width: boolean;
  paired_ci_excludes_zero: boolean;
  n: number;
}

export interface RetrievalNotScorable {
  corpus_id: string;
  arm: string;
  /** the retriever that would have scored it (rows are keyed by corpus, arm, retriever) */
  retriever?: RetrieverInfo;
  /** why, e.g. "no golden set for livemcptool@ddea2d24" */
  not_scorable: string;
}

export type RetrievalReport = RetrievalScored | RetrievalNotScorable;

export function isScored(r: RetrievalReport): r is RetrievalScored {
  return !('not_scorable' in r);
}
