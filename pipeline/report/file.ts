/**
 * What report.json holds of a report, against what a report held in memory holds: the per-query
 * rows of every retrieval row (offline, live, each system's live block) are in memory only; the
 * file keeps each row's query count and `query_ids_sha256`, and its rows are in tables/per_query
 * (tables.ts writes them, read.ts joins them back). One list of where rows live: queryRowBlocks.
 */
import type { QueryRow, Report } from './types.ts';
import { isScored } from './types.ts';

/** The keys of a block's rows in tables/per_query. */
export interface QueryRowKeys {
  source: string;
  corpus: string | null;
  arm: string;
  retriever: string | null;
  system: string | null;
}

/** A retrieval row that has per-query rows (in memory) and its keys in tables/per_query. */
export interface QueryRowBlock {
  keys: QueryRowKeys;
  row: { query_count: number; query_ids_sha256: string; per_query?: QueryRow[] };
}

/**
 * Every block of per-query rows, in report order: offline scored rows (source offline), the live
 * block's rows (source live_<detail>, arm proxy_<detail>), then each system's live rows (same,
 * with `system` = the --system name).
 */
export function queryRowBlocks(r: Report): QueryRowBlock[] {
  const out: QueryRowBlock[] = [];
  for (const x of r.retrieval) {
    if (isScored(x))
      out.push({ keys: { source: 'offline', corpus: x.corpus_id, arm: x.arm, retriever: x.retriever.id, system: null }, row: x });
  }
  const live = (l: NonNullable<Report['live']>, system: string | null) => {
    for (const x of l.retrieval)
      out.push({
        keys: { source: `live_${x.detail}`, corpus: l.corpus_id ?? null, arm: `proxy_${x.detail}`, retriever: null, system },
        row: x,
      });
  };
  if (r.live) live(r.live, null);
  for (const s of r.systems ?? []) if (s.live) live(s.live, s.name);
  return out;
}

/** The same string for the same keys (a Map key). */
export function queryKeyString(k: QueryRowKeys): string {
  return [k.source, k.corpus ?? '', k.arm, k.retriever ?? '', k.system ?? ''].join('\u0000');
}

/** A copy of the report without per-query rows (what report.json holds); the input is not changed. */
export function withoutQueryRows(r: Report): Report {
  const strip = <T extends { per_query?: QueryRow[] }>(x: T): T => {
    if (x.per_query === undefined) return x;
    const { per_query: _rows, ...rest } = x;
    return rest as T;
  };
  const live = (l: NonNullable<Report['live']>) => ({ ...l, retrieval: l.retrieval.map(strip) });
  const out: Report = { ...r, retrieval: r.retrieval.map((x) => (isScored(x) ? strip(x) : x)) };
  if (r.live) out.live = live(r.live);
  if (r.systems) out.systems = r.systems.map((s) => (s.live ? { ...s, live: live(s.live) } : s));
  return out;
}
