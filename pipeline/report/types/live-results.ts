/**
 * `live.result_cost` and `live.economics.task_sessions`: schema `$defs` live_result_cost,
 * result_tokens, result_components, task_session_row. The live stage (pipeline/live/result_cost.ts)
 * fills them; it lives above the report, so the shapes live here (moved from live/result_types.ts).
 */
import type { TaskSessionRow } from '../../economics/session.ts';
import type { TokenizerName } from '../../tokens/tokenizer.ts';

export const RESULT_COMPONENTS = ['content_text', 'content_other', 'structured_content', 'meta', 'wrapper'] as const;
export type ResultComponent = (typeof RESULT_COMPONENTS)[number];
export type ResultComponents = Record<ResultComponent, number>;

export interface ResultTokens {
  total: number;
  components: ResultComponents;
}

export interface LiveResultCallRow {
  query_id: string;
  tool_id: string;
  tokenizer: TokenizerName;
  /** 1-based rank of the tool in the proxy's ranking for the query */
  rank: number;
  ok: boolean;
  error?: string;
  /** tokens of the call the model writes: compact JSON of {name, arguments} */
  call_tokens: number;
  /** the call tool this call went through */
  call_tool?: string;
  /** true: that call tool came from the proxy's own `call_with` for this result */
  call_with?: boolean;
  proxy?: ResultTokens;
  direct?: ResultTokens;
  direct_error?: string;
  /** proxy.total - direct.total (null without a direct measurement) */
  overhead_tokens: number | null;
}

export interface LiveResultSkip {
  query_id: string;
  tool_id: string;
  reason: string;
}

export interface LiveResultSummary {
  tokenizer: TokenizerName;
  n: number;
  mean_call_tokens: number;
  mean_result_tokens: number;
  p50_result_tokens: number;
  max_result_tokens: number;
  /** over the calls that also have a direct measurement */
  direct_n: number;
  mean_direct_result_tokens: number | null;
  mean_overhead_tokens: number | null;
}

export interface LiveResultCost {
  call_tool: string;
  /** argument names of the call tool (upstream tool name, its arguments) */
  call_args?: { name: string; arguments: string };
  /** calls that used the proxy's own `call_with` hint instead of call_tool */
  call_with_used?: number;
  /** set when no result call ran because the proxy lists no call tool (names what it lists) */
  missing_call_tool?: string;
  /** a golden call runs when its tool is within the proxy's first top_k results (1 = top-1) */
  top_k: number;
  /** golden queries that carry a call */
  candidates: number;
  rows: LiveResultCallRow[];
  skipped: LiveResultSkip[];
  summary: LiveResultSummary[];
  method: string;
}

/** A session estimate with the result side, keyed like the other live economics rows. */
export interface TaskSessionEstimateRow extends TaskSessionRow {
  corpus_id: string;
  /** proxy_full | proxy_compact: which discovery response size is assumed */
  arm: string;
  tokenizer: TokenizerName;
  /** calls the mean call/result tokens are over */
  result_n: number;
}
