/**
 * The report document (report.json), report_version 1: the document itself (meta, the
 * top-level shape, the systems blocks) here, its parts one file per schema part under types/
 * (imports go down only: common <- corpora, arms, retrieval, economics <- live-results, live
 * <- scale <- this file). Importers inside the folder import this file; other folders import ../report/index.ts.
 *
 * These files and `datasets/schemas/report.schema.json` describe the same shape; a change to one
 * needs the same change to the other (test/report/schema-coverage.test.ts checks they stay in step).
 *
 * Conventions:
 * - Every headline number is a `Figure` ({value, unit, provenance, tokenizer?, n?, ci95?}).
 * - Token counts always name their tokenizer (a `by_tokenizer` key or a `tokenizer` field).
 * - Numbers are finite (no NaN/Infinity); "no value" is `null` where the type allows it.
 * - `meta.generated_at` is the only non-deterministic field.
 * - Optional fields are omitted, never set to `undefined`.
 */
import type { Figure, JsonValue, Provenance, TokenizerKey } from './types/common.ts';
import type { CorpusReport } from './types/corpora.ts';
import type { ArmReport, RankingAgreement } from './types/arms.ts';
import type { RetrievalReport } from './types/retrieval.ts';
import type { Economics } from './types/economics.ts';
import type { LiveReport } from './types/live.ts';
import type { ScaleReport } from './types/scale.ts';
import type { ResultsReport } from './types/results.ts';

export * from './types/common.ts';
export * from './types/corpora.ts';
export * from './types/arms.ts';
export * from './types/retrieval.ts';
export * from './types/economics.ts';
export * from './types/live-results.ts';
export * from './types/live.ts';
export * from './types/scale.ts';
export * from './types/results.ts';

export const REPORT_VERSION = 1 as const;

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
  /** the tables written beside report.json, by name (writeReport sets it; absent in memory) */
  tables?: ReportTables;
  /** several systems measured side by side (`--system`), one block each */
  systems?: SystemBlock[];
  /** cost growth vs catalog size (`--scale`) */
  scale?: ScaleReport;
}

// ---------------------------------------------------------------------------------------------
// tables: where the flat tables beside report.json live (schema $defs/tables)

export interface ReportTableEntry {
  /** path relative to report.json, e.g. "tables/per_query.arrow" */
  arrow: string;
  parquet: string;
  rows: number;
  columns: { name: string; kind: 'string' | 'int' | 'double' | 'bool' }[];
}

export type ReportTables = { [name: string]: ReportTableEntry };

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
  kind: string; // a --system kind: the registry pipeline/systems/kinds/index.ts (= the schema's $defs/system_kind, test/systems/kinds.test.ts)
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
