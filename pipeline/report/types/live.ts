/** `live`: schema `$defs` live, detail, components, live_response (the result-cost part is live-results.ts). */
import type { Figure, TokenizerKey } from './common.ts';
import type { QueryRow, RetrievalMetrics } from './retrieval.ts';
import type { BreakEvenCurvePoint, BreakEvenRow, SessionEstimateRow } from './economics.ts';
import type { LiveResultCost, TaskSessionEstimateRow } from './live-results.ts';

export type Detail = 'full' | 'compact';

export interface ResponseComponents {
  input_schemas: number;
  descriptions: number;
  usage_instructions: number;
  metadata: number;
  other: number;
}

export interface LiveResponseRow {
  query_id: string;
  detail: Detail;
  tokenizer: TokenizerKey;
  ok: boolean;
  /** required when !ok */
  error?: string;
  /** required when ok; components sum exactly to total_tokens */
  total_tokens?: number;
  result_count?: number;
  components?: ResponseComponents;
  /** client-measured wall time of the call */
  latency_ms: number;
}

export interface LiveResponseSummary {
  detail: Detail;
  tokenizer: TokenizerKey;
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** failed calls at this detail level (their responses are not in n) */
  errors?: number;
}

export interface LiveMenu {
  tokenizer: TokenizerKey;
  /** the proxy's own tools/list, over the wire */
  proxy_menu_tokens: Figure;
  /** union of the upstreams' tools/list, over the wire */
  full_menu_tokens: Figure;
  proxy_tool_count: number;
  upstream_tool_count: number;
}

export interface LiveRetrieval {
  detail: Detail;
  golden_version?: string;
  query_count: number;
  errors: number;
  /** absent when no discovery call at this detail gave a usable response (see not_computed_reason) */
  summary?: RetrievalMetrics;
  not_computed_reason?: string;
  /** sha256 (hex) of the golden query ids, golden order, joined by "\n" */
  query_ids_sha256: string;
  /** in memory only, as RetrievalScored.per_query (report.json: tables/per_query) */
  per_query?: QueryRow[];
}

export interface LiveLatency {
  detail: Detail;
  n: number;
  warmup: number;
  runs: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  mean_ms?: number;
  /** failed measured calls at this detail level (not in n) */
  errors?: number;
}

/** Pass-through gateways: the proxy's menu against the upstreams' menus, tool by tool. */
export interface LivePassthrough {
  tokenizer: string;
  /** upstream tools the proxy lists under some name */
  matched: number;
  unmatched_upstream: string[];
  /** proxy tools no upstream tool matched */
  extra_proxy: string[];
  /** sum over matched tools of (proxy rendering - upstream rendering) tokens: the cost of renaming/prefixing */
  prefix_overhead_tokens: number;
  per_tool: { upstream: string; proxy_name: string | null; how: string; upstream_tokens: number; proxy_tokens: number | null }[];
}

/** Calls by purpose: only `measured` calls count towards the error rate and the figures. */
export interface LiveCallCounts {
  n: number;
  errors: number;
}

export interface LiveStatus {
  state: 'ok' | 'failed';
  /** failed / measured calls (0 when none were made) */
  error_rate: number;
  max_error_rate: number;
  measured_calls: number;
  failed_calls: number;
  reason?: string;
}

export interface LapResult {
  executed: boolean;
  /** required when !executed, e.g. "skipped: lap not installed" */
  skip_reason?: string;
  version?: string;
  grade?: string;
  menu_tokens?: number;
  in_house_menu_tokens?: number;
  /** 100 * (lap - in_house) / in_house */
  divergence_pct?: number;
  /** set when |divergence_pct| > 15 */
  warning?: string;
  artifact_path?: string;
}

export interface LiveError {
  /** stage or query, e.g. "query:q07/full", "menu", "lap" */
  where: string;
  message: string;
}

export interface LiveReport {
  target: {
    kind: 'embedded' | 'url' | 'command';
    description: string;
    discovery_tool: string;
    arg_names: { query: string; limit: string | null; detail: string | null };
    /** how the proxy was spoken to (auto-detected for --proxy-url with --transport auto) */
    transport?: 'stdio' | 'streamable-http' | 'sse';
  };
  /** `retriever`: the registry id behind the embedded reference proxy (absent for an external proxy) */
  proxy: { server_name?: string; server_version?: string; protocol_version?: string; retriever?: string };
  /** discovery proxy or pass-through gateway, and why */
  style?: 'discovery' | 'passthrough';
  style_reason?: string;
  /** whether discovery (search responses, retrieval) was measured */
  discovery?: { status: 'measured' | 'not_applicable' | 'not_measured'; reason?: string };
  passthrough?: LivePassthrough;
  /** latency of a cheap, side-effect-free call (tools/list) */
  cheap_call?: {
    method: string;
    n: number;
    warmup: number;
    runs: number;
    p50_ms: number;
    p95_ms: number;
    p99_ms: number;
    max_ms: number;
    mean_ms: number;
  };
  calls?: { readiness: LiveCallCounts; warmup: LiveCallCounts; measured: LiveCallCounts };
  status?: LiveStatus;
  /** figures deliberately not computed, with the reason (never a number that would be wrong) */
  not_computed?: { what: string; reason: string }[];
  /** corpus the golden queries refer to (an id in corpora[] when offline ran) */
  corpus_id?: string;
  menus: LiveMenu[];
  /** false when any schema is missing on either side: no headline savings then */
  authoritative_headline: boolean;
  headline_reason?: string;
  responses: LiveResponseRow[];
  response_summary: LiveResponseSummary[];
  retrieval: LiveRetrieval[];
  latency: LiveLatency[];
  economics: {
    break_even: BreakEvenRow[];
    session_estimates: SessionEstimateRow[];
    curves?: BreakEvenCurvePoint[];
    /** menu + tasks x (discovery response + call + result): present when result calls ran */
    task_sessions?: TaskSessionEstimateRow[];
  };
  /** what tool results cost through the proxy vs directly (pipeline/live/results.ts) */
  result_cost?: LiveResultCost;
  lap: LapResult;
  errors: LiveError[];
}
