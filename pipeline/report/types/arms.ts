/** `arms[]` and `ranking_agreement[]`: schema `$defs` arm, arm_token_stats, tool_tokens, ranking_agreement. */
import type { Figure, TokenizerKey } from './common.ts';

export interface ToolTokens {
  tool_id: string;
  tokens: number;
}

export interface ArmTokenStats {
  /** whole listing tokens (measured) */
  total_tokens: Figure;
  /** per-tool distribution (rendered single tools) */
  mean: number;
  p50: number;
  p95: number;
  max: number;
  /** 100 * (baseline - this) / baseline for the same corpus + tokenizer; computed; 0 for baseline */
  savings_vs_baseline_pct: Figure;
  /** top 10 heaviest tools, tokens desc, tool_id asc */
  heaviest: ToolTokens[];
  /**
   * tokens of each tool rendered alone, aligned to corpus.tool_ids; null = the arm skipped
   * (could not encode) that tool. Feeds the Arrow/Parquet per-tool table.
   */
  per_tool_tokens: (number | null)[];
}

export interface SkipExample {
  tool_id: string;
  error: string;
}

export interface ArmReport {
  /** arm id, ^[a-z0-9_]+$ */
  arm: string;
  corpus_id: string;
  description?: string;
  skipped: boolean;
  /** required when skipped, e.g. "skipped: @tscg/core not installed" */
  skip_reason?: string;
  /** the arm changes what the search index sees (re-indexed and scored on its own text) */
  index_altering: boolean;
  /** the numbers are a lower bound (e.g. descriptions elided) */
  lower_bound: boolean;
  /** assumed retry rate for session estimates (0..1) */
  retry_rate: number;
  /** tools the arm could not encode (counted, never silently dropped) */
  skipped_tools: number;
  skip_examples: SkipExample[];
  /** keyed by tokenizer name; empty object when the arm is skipped */
  by_tokenizer: { [tokenizer: TokenizerKey]: ArmTokenStats };
}

/** Per corpus: arm ids ordered by total listing tokens (ascending, ties by arm id) per tokenizer. */
export interface RankingAgreement {
  corpus_id: string;
  by_tokenizer: { [tokenizer: TokenizerKey]: string[] };
  /** true iff every tokenizer gives the same order */
  same: boolean;
}
