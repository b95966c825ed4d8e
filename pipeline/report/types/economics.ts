/** `economics` (and the live economics rows): schema `$defs` economics, break_even_row, session_estimate_row, curve_point. */
import type { BreakEvenRow as EconBreakEvenRow } from '../../economics/breakeven.ts';
import type { SessionRow as EconSessionRow } from '../../economics/session.ts';
import type { TokenizerKey } from './common.ts';

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
