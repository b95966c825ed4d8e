/**
 * The report document (report.json), report_version 1.
 *
 * This file and `datasets/schemas/report.schema.json` describe the same shape; a change to one
 * needs the same change to the other (test/report/schema.test.ts checks they stay in step).
 *
 * Conventions:
 * - Every headline number is a `Figure` ({value, unit, provenance, tokenizer?, n?, ci95?}).
 * - Token counts always name their tokenizer (a `by_tokenizer` key or a `tokenizer` field).
 * - Numbers are finite (no NaN/Infinity); "no value" is `null` where the type allows it.
 * - `meta.generated_at` is the only non-deterministic field.
 * - Optional fields are omitted, never set to `undefined`.
 */
import type { Figure, JsonValue, Provenance } from '../types.ts';
import type { BreakEvenRow as EconBreakEvenRow } from '../economics/breakeven.ts';
import type { SessionRow as EconSessionRow } from '../economics/session.ts';
import type { LiveResultCost, TaskSessionEstimateRow } from '../live/result_types.ts';
import type { ResultsReport } from '../toolresults/stage.ts';

export type { Figure, Provenance, JsonValue };

export const REPORT_VERSION = 1 as const;

/** Tokenizer name, e.g. "cl100k_base" | "o200k_base" (pattern ^[a-z0-9_]+$). */
export type TokenizerKey = string;

// ---------------------------------------------------------------------------------------------
// meta

export interface ReportMeta {
  tool: { name: 'mcpgauge'; version: string };
  /** RFC 3339 UTC date-time; the only non-deterministic field. */
  generated_at: string;
  /** argv after `node`, e.g. ["mcpgauge", "bench", "--out", "results/discovery"] */
  command_line: string[];
  /** process.version, e.g. "v20.19.0" */
  node_version: string;
  /** 40-hex commit of the working tree, or null when unknown */
  git_commit: string | null;
  /** resolved run options (flags after defaults), free-form JSON */
  options: { [k: string]: JsonValue };
  /** every tokenizer used in this report, with its caveat */
  tokenizers: { name: TokenizerKey; caveat: string }[];
  /** the caveat banner shown at the top of the dashboard (min 10 chars) */
  caveat: string;
  /** free-form methodology notes */
  notes?: string[];
}

// ---------------------------------------------------------------------------------------------
// corpora + hygiene

export interface DegenerateExample {
  tool_id: string;
  description: string;
  /** which rule fired, one of `rules` */
  rule?: string;
}

export interface CorpusHygiene {
  degenerate: {
    /** tools counted once even when several rules match */
    count: number;
    /** the rule texts applied, e.g. "description shorter than 20 characters" */
    rules: string[];
    /** up to ~10 examples */
    examples: DegenerateExample[];
  };
  /** size of each tool's canonical-JSON inputSchema, in UTF-8 bytes */
  schema_size: {
    unit: 'bytes';
    tools_with_schema: number;
    tools_without_schema: number;
    /** null when no tool has a schema */
    min: number | null;
    mean: number | null;
    p50: number | null;
    p95: number | null;
    max: number | null;
  };
  duplicate_schemas: {
    /** distinct canonical schemas */
    distinct: number;
    /** tools whose schema is shared with at least one other tool */
    tools_sharing: number;
    /** groups of tools sharing one schema, largest first (may be truncated) */
    groups: { schema_sha256: string; bytes: number; tool_count: number; tool_ids: string[] }[];
  };  /** tools whose text holds U+FFFD (invalid UTF-8 in the source); absent in older reports */
  invalid_utf8?: { count: number; tool_ids: string[] };
}

export interface CorpusReport {
  /** short id used in every row, e.g. "corpus-npm4-v1" */
  id: string;
  name: string;
  version: string;
  tool_count: number;
  license: string;
  attribution?: string;
  committed: boolean;
  /** loader: "mcpgauge" | "mcpproxy-v1" | "mcpproxy-v2" | "livemcptool" | "toolret" | "tools-list" | "synthetic" | "live" */
  format: string;
  source: string;
  /**
   * tool ids in corpus order; `arms[].by_tokenizer[*].per_tool_tokens` is aligned to this list.
   * Length must equal tool_count (checked by validateReport).
   */
  tool_ids: string[];
  hygiene: CorpusHygiene;
}

// ---------------------------------------------------------------------------------------------
// arms

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

// ---------------------------------------------------------------------------------------------
// retrieval

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
  per_query: QueryRow[];
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

/** The (corpus, arm, retriever) key of a retrieval row; unique within a report (validateReport). */
export function retrievalKey(r: RetrievalReport): string {
  return `${r.corpus_id}\u0000${r.arm}\u0000${r.retriever?.id ?? ''}`;
}

export function isScored(r: RetrievalReport): r is RetrievalScored {
  return !('not_scorable' in r);
}

// ---------------------------------------------------------------------------------------------
// economics

/** Which row of which table a figure belongs to. */
export interface RowKey {
  corpus_id: string;
  /** arm id offline; live uses the detail label, e.g. "proxy_full" */
  arm: string;
  tokenizer: TokenizerKey;
}

/**
 * A break-even row: the economics module's row (inputs echoed, break_even_calls or an explicit
 * no_break_even with its reason, provenance 'computed') keyed by corpus, arm and tokenizer.
 */
export type BreakEvenRow = RowKey & EconBreakEvenRow;

/** A session estimate row: the economics module's row (provenance 'estimated') keyed likewise. */
export type SessionEstimateRow = RowKey & EconSessionRow;

/** One point of the break-even chart: cumulative context tokens after `calls` discovery calls. */
export interface BreakEvenCurvePoint {
  corpus_id: string;
  arm: string;
  tokenizer: TokenizerKey;
  calls: number;
  /** full menu in context (flat in calls) */
  full_menu_tokens: number;
  /** discovery menu + calls * mean response */
  discovery_tokens: number;
}

export interface Economics {
  break_even: BreakEvenRow[];
  session_estimates: SessionEstimateRow[];
  curves: BreakEvenCurvePoint[];
}

// ---------------------------------------------------------------------------------------------
// live

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
  per_query: QueryRow[];
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
  cheap_call?: { method: string; n: number; warmup: number; runs: number; p50_ms: number; p95_ms: number; p99_ms: number; max_ms: number; mean_ms: number };
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

// ---------------------------------------------------------------------------------------------
// the document

export interface Report {
  report_version: typeof REPORT_VERSION;
  meta: ReportMeta;
  /**
   * section -> how its numbers were obtained, e.g. {corpora: 'measured', arms: 'measured',
   * savings_vs_baseline_pct: 'computed', retrieval: 'measured', 'economics.break_even': 'computed',
   * 'economics.session_estimates': 'estimated', 'live.menus': 'measured', ...}
   * Keys match ^[a-z0-9_.]+$.
   */
  provenance: { [section: string]: Provenance };
  corpora: CorpusReport[];
  arms: ArmReport[];
  ranking_agreement: RankingAgreement[];
  retrieval: RetrievalReport[];
  economics: Economics;
  /** tool-result encodings (result arms over the result fixtures); absent when not profiled */
  results?: ResultsReport;
  live?: LiveReport;
  /** several systems measured side by side (`--system`), one block each */
  systems?: SystemBlock[];
  /** cost growth vs catalog size (`--scale`) */
  scale?: ScaleReport;
}

// ---------------------------------------------------------------------------------------------
// scale: cost growth vs catalog size (`--scale`)

/** One measured point: one system in front of a catalog of one size. */
export interface ScalePoint {
  system: string;
  /** catalog size asked for (the fixture's --catalog N) */
  catalog_size: number;
  /** tools the upstreams list directly at this size (catalog + the fixture's built-ins): the x of the fits */
  upstream_tools: number;
  ok: boolean;
  /** why the point failed (deadline, crash, not ready, ...) */
  error?: string;
  /** wall time of the whole point (start, ready, queries, stop), ms */
  wall_ms: number;
  /** tools the system lists in its own tools/list */
  listed_tools?: number;
  /** its tools/list rendered like baseline_json, per tokenizer (measured) */
  menu_tokens?: { [tokenizer: TokenizerKey]: number };
  /** the upstreams' union listed directly, per tokenizer (measured) */
  full_menu_tokens?: { [tokenizer: TokenizerKey]: number };
  /** discovery responses for the fixed query set, per tokenizer (measured); absent for direct */
  response_tokens?: { [tokenizer: TokenizerKey]: { n: number; p50: number; p95: number; mean: number } };
  /** start until ready, client-measured, and the rule that defined ready */
  ready_ms?: number;
  ready_rule?: string;
  /** what was timed: the discovery tool (proxies) or a full tools/list (direct) */
  latency_of?: string;
  latency?: { n: number; p50_ms: number; p99_ms: number; max_ms: number };
  /** resident memory of the proxy process after the queries, and its peak (VmHWM); absent when not started here */
  rss_mb?: number;
  rss_peak_mb?: number;
  /** (full menu - menu) / mean response, per tokenizer (computed); null = no break-even */
  break_even_calls?: { [tokenizer: TokenizerKey]: number | null };
  /** failed discovery calls */
  errors: number;
}

/** A fitted growth exponent: slope of log(figure) against log(upstream_tools). */
export interface ScaleFit {
  system: string;
  /** e.g. "menu_tokens", "response_tokens_p50", "ready_ms", "latency_p99_ms", "rss_mb", "break_even_calls" */
  figure: string;
  tokenizer?: TokenizerKey;
  /** y ∝ N^exponent (least squares on log-log) */
  exponent: number;
  /** coefficient of determination of the log-log fit */
  r2: number;
  /** points used (ok points with a positive value) */
  n: number;
  provenance: 'computed';
}

export interface ScaleReport {
  /** where the catalog tools come from and how they were sampled */
  catalog: { source: string; corpus_id: string; seed: number; page_size: number; sizes: number[] };
  /** the fixed discovery queries (texts from the golden set; ids listed) */
  queries: { source: string; ids: string[]; limit: number; detail: Detail; runs: number; warmup: number };
  systems: { name: string; kind: string; spec: string; description?: string }[];
  point_timeout_ms: number;
  points: ScalePoint[];
  fits: ScaleFit[];
  notes: string[];
}

// ---------------------------------------------------------------------------------------------
// systems: several systems measured side by side (`--system NAME=SPEC`, repeatable)

/** The naive baseline measured over MCP: every upstream connected directly, full menus in context. */
export interface DirectBlock {
  /** the upstreams' union rendered like baseline_json (measured) */
  menus: { tokenizer: TokenizerKey; menu_tokens: Figure; tool_count: number }[];
  /** a full tools/list of every upstream (all pages), client-measured */
  latency: { n: number; p50_ms: number; p99_ms: number; max_ms: number; of: string };
  upstreams: string[];
}

export interface SystemBlock {
  name: string;
  kind: 'direct' | 'reference' | 'cmd' | 'url' | 'preset';
  /** the SPEC as given */
  spec: string;
  description: string;
  /** proxies: the live measurement (same shape as the single `live` section) */
  live?: LiveReport;
  /** direct: its menu and listing latency */
  direct?: DirectBlock;
  /** the system could not be measured; the run went on */
  error?: string;
}
