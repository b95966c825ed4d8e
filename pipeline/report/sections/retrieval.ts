/** Retrieval quality per (corpus, arm, retriever) with bootstrap CIs, plus every per-query row. */
import type { ReportSection, TableRow } from '../details.ts';
import { html } from '../html.ts';
import { rich } from '../render.ts';
import { isScored, type Report } from '../types.ts';
import { capRows, isWeak, leadColumns, METRIC_COLUMNS, metricValues, offlinePerQueryRows, perQueryTable } from './common.ts';

export const retrievalSection: ReportSection<Report> = {
  id: 'retrieval',
  title: 'Retrieval quality',
  provenanceKeys: ['retrieval'],
  schemaRefs: ['#/$defs/retrieval', '#/$defs/metrics', '#/$defs/tables', '#/$defs/query_row'],
  build(r) {
    const columns = [
      ...leadColumns({ arm: 'key' }),
      { key: 'retriever', label: 'Retriever', type: 'text' as const },
      { key: 'golden_version', label: 'Golden', type: 'ident' as const },
      { key: 'query_count', label: 'Queries', type: 'int' as const },
      { key: 'errors', label: 'Errors', type: 'int' as const },
      ...METRIC_COLUMNS,
    ];
    const rows = r.retrieval.map((x): TableRow => {
      const retriever = x.retriever
        ? rich(
            html`${x.retriever.id}<div class="meta" title="${JSON.stringify(x.retriever.params)}">${x.retriever.analyzer}</div>`,
            x.retriever.id,
          )
        : '';
      if (!isScored(x)) {
        return {
          corpus_id: x.corpus_id,
          arm: x.arm,
          retriever,
          golden_version: rich(html`<span class="muted">not scorable: ${x.not_scorable}</span>`, '', { colspan: columns.length - 3 }),
        };
      }
      return {
        corpus_id: x.corpus_id,
        arm: x.arm,
        retriever,
        golden_version: x.golden_version,
        query_count: x.query_count,
        errors: x.errors ? rich(html`<span class="bad">${x.errors}</span>`, x.errors, { num: true }) : x.errors,
        ...metricValues(x.metrics),
      };
    });
    const all = offlinePerQueryRows(r);
    const weak = all.filter((x) => isWeak(x.q)).length;
    const pq = capRows(all);
    return {
      blocks: [
        {
          kind: 'paragraph',
          text: 'Means over golden queries with 95% bootstrap confidence intervals in brackets. Index-altering arms are re-indexed and scored on their own text; rendering-only arms score the same as baseline.',
        },
        { kind: 'table', id: 'retrieval-table', columns, rows },
        { kind: 'heading', text: `Per-query results (${all.length} rows, ${weak} weak)` },
        ...(pq.length < all.length
          ? [
              {
                kind: 'paragraph' as const,
                text: `showing ${pq.length} of ${all.length} rows (every weak row kept); all rows are in tables/per_query.parquet`,
              },
            ]
          : []),
        // what a reader scrolls past: collapsed, its rows drawn when opened
        { kind: 'details', summary: `Every per-query row (${pq.length})`, blocks: [perQueryTable(pq, 'per-query-table')] },
      ],
    };
  },
};
