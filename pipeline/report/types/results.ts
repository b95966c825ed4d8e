/**
 * `results` (tool-result encodings): schema `$defs` results, result_arm_row, result_arm_summary,
 * toon_ordering_row, payload_class, result_class_scope. The result stage
 * (pipeline/toolresults/stage.ts, arm-rows.ts) fills them; it sits above the report, so the
 * shapes live here (moved from toolresults/stage.ts and arm-rows.ts, which re-export them).
 */
import type { PayloadClass } from '../../../arms/tabular.ts';
import type { TokenizerName } from '../../tokens/tokenizer.ts';

/** where a fixture's payload came from in the tool result */
export const PAYLOAD_FROM = ['text_json', 'text', 'content'] as const;
export type PayloadFrom = (typeof PAYLOAD_FROM)[number];

export type ResultClassScope = PayloadClass | 'all';

export interface ResultArmRow {
  fixture_id: string;
  payload_class: PayloadClass;
  arm: string;
  tokenizer: TokenizerName;
  skipped: boolean;
  skip_reason?: string;
  /** characters of the rendered text */
  chars?: number;
  tokens?: number;
  /** tokens of the json arm on the same fixture */
  json_tokens: number;
  /** (1 - tokens / json_tokens) x 100; null when skipped or lossy */
  savings_vs_json_pct: number | null;
  /** decode(render(payload)) equals the payload (canonical JSON comparison); null when skipped */
  round_trip: boolean | null;
  /** why the round trip failed (first difference or decode error) */
  round_trip_error?: string;
}

export interface ResultArmSummary {
  arm: string;
  tokenizer: TokenizerName;
  payload_class: ResultClassScope;
  /** fixtures of this class */
  fixtures: number;
  /** fixtures rendered losslessly (what the figures below are over) */
  n: number;
  lossy_n: number;
  skipped_n: number;
  total_tokens: number;
  /** json tokens over the same n fixtures */
  json_total_tokens: number;
  /** (1 - total / json_total) x 100 over the same fixtures; null when n = 0 */
  savings_vs_json_pct: number | null;
  mean_tokens: number | null;
  /** mean of the per-fixture savings; null when n = 0 */
  mean_savings_vs_json_pct: number | null;
}

export interface ResultRoundTrip {
  arm: string;
  checked: number;
  lossless: number;
  lossy_fixtures: string[];
  skipped: number;
}

/** TOON against both JSON forms on one class of payloads (lossless fixtures only). */
export interface ToonOrderingRow {
  tokenizer: TokenizerName;
  payload_class: ResultClassScope;
  n: number;
  toon_tokens: number;
  json_tokens: number;
  json_compact_tokens: number;
  /** (1 - toon / json) x 100 */
  toon_vs_json_pct: number | null;
  /** (1 - toon / json_compact) x 100: the predecessor's comparison (TOON vs compact JSON) */
  toon_vs_json_compact_pct: number | null;
  /** per fixture, TOON against json_compact: fewer / equal / more tokens */
  fixtures_toon_fewer: number;
  fixtures_toon_equal: number;
  fixtures_toon_more: number;
}

export interface ResultsReport {
  fixture_set: {
    version: string;
    /** path relative to the repo when inside it */
    source: string;
    fixture_count: number;
    tabular_count: number;
    non_tabular_count: number;
    fixtures_sha256: string;
    tabular_rule: string;
  };
  arms: Array<{ id: string; description: string; library?: string }>;
  fixtures: Array<{
    id: string;
    server: string;
    tool: string;
    payload_class: PayloadClass;
    payload_from: PayloadFrom;
    not_tabular_because?: string;
  }>;
  rows: ResultArmRow[];
  summary: ResultArmSummary[];
  round_trip: ResultRoundTrip[];
  toon_ordering: ToonOrderingRow[];
  method: string;
}
