/** Pieces several bench-report sections share (metric columns, per-query table, economics tables). */
import type { Provenance } from '../../types.ts';
import type { Block, Column, TableDetails, TableRow } from '../details.ts';
import { html } from '../html.ts';
import { badge, fmtInt, fmtNum, rich } from '../render.ts';
import { isScored, type Economics, type QueryRow, type Report, type RetrievalMetrics } from '../types.ts';

export function primaryTokenizer(r: Report): string {
  return r.meta.tokenizers[0].name;
}

export const METRIC_COLS: [keyof RetrievalMetrics & string, string][] = [
  ['recall_at_1', 'R@1'],
  ['recall_at_3', 'R@3'],
  ['recall_at_5', 'R@5'],
  ['recall_at_10', 'R@10'],
  ['mrr', 'MRR'],
  ['ndcg_at_10', 'nDCG@10'],
  ['map', 'MAP'],
  ['comprehensiveness_at_5', 'Comp@5'],
];

/** one 'figure' column per retrieval metric; rows carry the Figures under the metric keys */
export const METRIC_COLUMNS: Column[] = METRIC_COLS.map(([key, label]) => ({ key, label, type: 'figure', metric: true }));

export function metricValues(m: RetrievalMetrics): TableRow {
  return Object.fromEntries(METRIC_COLS.map(([k]) => [k, m[k]]));
}

export function isWeak(q: QueryRow): boolean {
  return q.error !== undefined || q.first_relevant_rank === null || q.first_relevant_rank > 5;
}

/** Most per-query rows the page shows (large external sets stay usable; tables/ has them all). */
/**
 * The leading Corpus / Arm (/ Tokenizer) columns of the bench tables: the one home of their keys
 * and labels. `arm` is the arm column's type (a sort key in some tables), `corpusKey` the row
 * field that holds the corpus id.
 */
export function leadColumns(o: { arm?: 'ident' | 'key'; tokenizer?: boolean; corpusKey?: string } = {}): Column[] {
  return [
    { key: o.corpusKey ?? 'corpus_id', label: 'Corpus', type: 'ident' },
    { key: 'arm', label: 'Arm', type: o.arm ?? 'ident' },
    ...(o.tokenizer ? [{ key: 'tokenizer', label: 'Tokenizer', type: 'ident' } as Column] : []),
  ];
}

export const MAX_QUERY_ROWS = 2000;

/** Keep every weak row first, then the rest, up to the cap; original order preserved. */
export function capRows<T extends { q: QueryRow }>(rows: T[]): T[] {
  if (rows.length <= MAX_QUERY_ROWS) return rows;
  const keep = new Set<number>();
  rows.forEach((x, i) => {
    if (keep.size < MAX_QUERY_ROWS && isWeak(x.q)) keep.add(i);
  });
  rows.forEach((_, i) => {
    if (keep.size < MAX_QUERY_ROWS) keep.add(i);
  });
  return rows.filter((_, i) => keep.has(i));
}

/** One per-query row as the page shows it: the (corpus, arm, retriever) it was scored under and its query row. */
export interface PerQueryRow {
  corpus: string;
  arm: string;
  retriever: string;
  q: QueryRow;
}

/**
 * The offline per-query rows, from the one place the dashboard reads them (today each scored
 * retrieval block's `per_query` in report.json). The per-query table takes this plain array;
 * when the rows move to another store only this function changes.
 */
export function offlinePerQueryRows(r: Report): PerQueryRow[] {
  return r.retrieval
    .filter(isScored)
    .flatMap((x) => (x.per_query ?? []).map((q) => ({ corpus: x.corpus_id, arm: x.arm, retriever: x.retriever.id, q })));
}

/** The live stage's per-query rows (the proxy's rankings), from the one place the dashboard reads them. */
export function livePerQueryRows(r: Report): PerQueryRow[] {
  const l = r.live;
  if (!l) return [];
  return l.retrieval.flatMap((x) =>
    (x.per_query ?? []).map((q) => ({ corpus: l.corpus_id ?? 'live', arm: `proxy (${x.detail})`, retriever: 'proxy', q })),
  );
}

/**
 * The per-query table of any array of per-query rows. Drawn inside a collapsed `details` block,
 * its rows are drawn when the block opens (render.ts PAGE_ROWS): the sections put it in one.
 */
export function perQueryTable(rows: PerQueryRow[], id: string): TableDetails {
  return {
    kind: 'table',
    id,
    columns: [
      ...leadColumns({ corpusKey: 'corpus' }),
      { key: 'retriever', label: 'Retriever', type: 'ident' },
      { key: 'query_id', label: 'Query id', type: 'ident' },
      { key: 'query', label: 'Query', type: 'text', wide: true },
      { key: 'first_relevant_rank', label: 'First rank', type: 'int' },
      { key: 'recall_at_5', label: 'R@5', type: 'num', digits: 2 },
      { key: 'rr', label: 'RR', type: 'num', digits: 3 },
      { key: 'ndcg_at_10', label: 'nDCG@10', type: 'num', digits: 3 },
      { key: 'ap', label: 'AP', type: 'num', digits: 3 },
      { key: 'top3', label: 'Top 3', type: 'text', mono: true },
      { key: 'error', label: 'Error', type: 'text' },
    ],
    rows: rows.map(({ corpus, arm, retriever, q }) => ({
      corpus,
      arm,
      retriever,
      query_id: q.query_id,
      query: q.query,
      first_relevant_rank: q.first_relevant_rank,
      recall_at_5: q.recall_at_5,
      rr: q.rr,
      ndcg_at_10: q.ndcg_at_10,
      ap: q.ap,
      top3: q.top.slice(0, 3).join(', '),
      error: q.error ? rich(html`<span class="bad">${q.error}</span>`, q.error) : '',
    })),
    rowClasses: rows.map(({ q }) => (q.error ? 'err' : isWeak(q) ? 'weak' : '')),
    filter: { placeholder: 'arm, query id or text', note: 'weak queries (no relevant tool in the top 5, or an error) are shaded' },
  };
}

/** Break-even and session-estimate tables (offline economics and live economics). */
export function economicsBlocks(
  e: Pick<Economics, 'break_even' | 'session_estimates'>,
  id: string,
  title: string,
  provBe?: Provenance,
  provSe?: Provenance,
): Block[] {
  return [
    { kind: 'heading', text: `${title}: break-even`, provenance: provBe },
    {
      kind: 'paragraph',
      text: 'break-even calls = (full-menu tokens − discovery-menu tokens) / mean discovery response tokens: for a session with up to that many discovery calls the discovery menu plus its responses costs fewer tokens than the full menu; past it the full menu is cheaper. No break-even when the numerator is ≤ 0 (the discovery menu alone costs as much as the full menu).',
    },
    {
      kind: 'table',
      id: `${id}-break-even`,
      columns: [
        ...leadColumns({ tokenizer: true }),
        { key: 'full_menu_tokens', label: 'Full menu', type: 'num', digits: 0 },
        { key: 'discovery_menu_tokens', label: 'Discovery menu', type: 'num', digits: 0 },
        { key: 'mean_response_tokens', label: 'Mean response', type: 'num', digits: 1 },
        { key: 'calls', label: 'Break-even calls', type: 'num' },
      ],
      rows: e.break_even.map((b) => ({
        ...b,
        calls: b.no_break_even
          ? rich(html`<span class="bad">no break-even</span><div class="meta">${b.reason ?? ''}</div>`, Number.POSITIVE_INFINITY, {
              num: true,
            })
          : rich(html`${fmtNum(b.break_even_calls ?? 0, 2)}${badge(b.provenance)}`, b.break_even_calls, { num: true }),
      })),
    },
    { kind: 'heading', text: `${title}: session estimates`, provenance: provSe },
    { kind: 'paragraph', text: 'estimated tokens = menu + calls × mean response × (1 + retry rate), rounded half up. Always an estimate.' },
    {
      kind: 'table',
      id: `${id}-sessions`,
      columns: [
        ...leadColumns({ tokenizer: true }),
        { key: 'calls_per_session', label: 'Calls/session', type: 'int' },
        { key: 'retry_rate', label: 'Retry rate', type: 'num', digits: 2 },
        { key: 'menu_tokens', label: 'Menu', type: 'num', digits: 0 },
        { key: 'mean_response_tokens', label: 'Mean response', type: 'num', digits: 1 },
        { key: 'estimated', label: 'Estimated tokens', type: 'int' },
      ],
      rows: e.session_estimates.map((s) => ({
        ...s,
        estimated: rich(html`${fmtInt(s.estimated_tokens)}${badge(s.provenance)}`, s.estimated_tokens, { num: true }),
      })),
    },
  ];
}
