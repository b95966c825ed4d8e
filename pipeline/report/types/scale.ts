/** `scale` (`--scale`): schema `$defs` scale, scale_point, scale_fit. */
import type { TokenizerKey } from './common.ts';
import type { Detail } from './live.ts';

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
