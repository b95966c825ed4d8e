/**
 * Report rows built from the library's results, shared by the offline and live stages (one
 * builder per row type, so both stages write identical shapes).
 */
import { createHash } from 'node:crypto';
import type { BreakEvenCurve, BreakEvenRow as EconBreakEvenRow } from '../economics/breakeven.ts';
import type { SessionRow } from '../economics/session.ts';
import type { QueryResult } from '../retrieval/index.ts';
import type { BreakEvenCurvePoint, BreakEvenRow, QueryRow, RowKey, SessionEstimateRow } from './types.ts';

/**
 * A reshape, not a copy: the report's per-query row keeps the scored figures it publishes
 * (recall@1/3/5/10, rr, nDCG@10, ap, comprehensive@5, top, gold, error when set) and drops the
 * rest of QueryResult (relevant_count, hard-negative ranks, the other comprehensiveness cut-offs).
 * The summary metrics need no builder: a retrieval row stores `RetrievalSummary.metrics` as is.
 */
export function toQueryRow(q: QueryResult): QueryRow {
  const row: QueryRow = {
    query_id: q.query_id,
    query: q.query,
    first_relevant_rank: q.first_relevant_rank,
    recall_at_1: q.recall_at_1,
    recall_at_3: q.recall_at_3,
    recall_at_5: q.recall_at_5,
    recall_at_10: q.recall_at_10,
    rr: q.rr,
    ndcg_at_10: q.ndcg_at_10,
    ap: q.ap,
    comprehensive_at_5: q.comprehensive_at_5,
    top: q.top,
    gold: q.gold,
  };
  if (q.error !== undefined) row.error = q.error;
  return row;
}

/** A retrieval row's `query_ids_sha256`: sha256 (hex) of its query ids in golden order, joined by "\n". */
export function queryIdsDigest(rows: readonly { query_id: string }[]): string {
  return createHash('sha256')
    .update(rows.map((q) => q.query_id).join('\n'))
    .digest('hex');
}

export function breakEvenRow(key: RowKey, be: EconBreakEvenRow): BreakEvenRow {
  return {
    ...key,
    full_menu_tokens: be.full_menu_tokens,
    discovery_menu_tokens: be.discovery_menu_tokens,
    mean_response_tokens: be.mean_response_tokens,
    break_even_calls: be.break_even_calls,
    no_break_even: be.no_break_even,
    ...(be.reason ? { reason: be.reason } : {}),
    provenance: 'computed',
  };
}

export function curveRows(key: RowKey, curve: BreakEvenCurve): BreakEvenCurvePoint[] {
  return curve.points.map((p) => ({ ...key, calls: p.calls, full_menu_tokens: p.full_menu_tokens, discovery_tokens: p.discovery_tokens }));
}

export function sessionRows(key: RowKey, rows: SessionRow[]): SessionEstimateRow[] {
  return rows.map((s) => ({ ...key, ...s }));
}
