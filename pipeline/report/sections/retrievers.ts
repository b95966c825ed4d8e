/**
 * Retrievers compared: for every (corpus, arm) that was scored, one row per retriever with
 * R@1/3/5/10, MRR, nDCG@10, MAP (95% bootstrap CIs), the paired recall@5 difference against the
 * default retriever, whether that difference exceeds the retriever's own CI half-width, the
 * cross-validated choice for tuned retrievers (held-out scores only), and the measured build
 * time and query p50/p99, and the per-fold choices. The chart "recall@5 per retriever" is in the
 * chart grid (sections/charts.ts, spec retriever_recall).
 */
import { DEFAULT_RETRIEVER_ID } from '../../retrieval/index.ts';
import type { Block, Column, ReportSection, TableRow } from '../details.ts';
import { html } from '../html.ts';
import { fmtMetric, rich } from '../render.ts';
import { isScored, type Report, type RetrievalScored } from '../types.ts';
import { leadColumns, METRIC_COLUMNS, metricValues } from './common.ts';

const signed = (x: number) => `${x >= 0 ? '+' : '\u2212'}${fmtMetric(Math.abs(x))}`;
const json = (o: unknown) => JSON.stringify(o);

function verdict(r: Report): string {
  const scored = r.retrieval.filter(isScored).filter((x) => x.vs_default);
  if (scored.length === 0) return `Only ${DEFAULT_RETRIEVER_ID} was scored: nothing to compare.`;
  const wins = scored.filter((x) => x.vs_default!.beats_by_more_than_half_width);
  const paired = scored.filter((x) => x.vs_default!.paired_ci_excludes_zero && x.vs_default!.delta > 0);
  const where = (xs: RetrievalScored[]) =>
    xs.map((x) => `${x.retriever.id} on ${x.corpus_id}/${x.arm} (${signed(x.vs_default!.delta)})`).join(', ');
  const first = wins.length
    ? `Beats ${DEFAULT_RETRIEVER_ID} on recall@5 by more than its own 95% CI half-width: ${where(wins)}.`
    : `No retriever beats ${DEFAULT_RETRIEVER_ID} on recall@5 by more than its own 95% CI half-width.`;
  const second = paired.length
    ? ` Better than ${DEFAULT_RETRIEVER_ID} with a paired bootstrap CI of the per-query difference above zero: ${where(paired)}.`
    : ` No retriever is better than ${DEFAULT_RETRIEVER_ID} with a paired difference CI above zero.`;
  return first + second;
}

export const retrieversSection: ReportSection<Report> = {
  id: 'retrievers',
  title: 'Retrievers compared',
  provenanceKeys: ['retrieval'],
  schemaRefs: ['#/$defs/retrieval'],
  appliesTo: (r) => new Set(r.retrieval.map((x) => x.retriever?.id)).size > 1,
  build(r) {
    const columns: Column[] = [
      ...leadColumns(),
      { key: 'retriever', label: 'Retriever', type: 'text' },
      ...METRIC_COLUMNS.filter((c) => c.key !== 'comprehensiveness_at_5'),
      { key: 'delta', label: `\u0394R@5 vs ${DEFAULT_RETRIEVER_ID} [paired CI]`, type: 'text' },
      { key: 'beats', label: '> CI half-width', type: 'text' },
      { key: 'build', label: 'Build ms', type: 'num', digits: 1 },
      { key: 'p50', label: 'Query p50 ms', type: 'num', digits: 3 },
      { key: 'p99', label: 'Query p99 ms', type: 'num', digits: 3 },
    ];
    const rows = r.retrieval
      .filter((x) => x.retriever)
      .map((x): TableRow => {
        const head = { corpus_id: x.corpus_id, arm: x.arm };
        if (!isScored(x)) {
          return {
            ...head,
            retriever: x.retriever!.id,
            recall_at_1: rich(html`<span class="muted">${x.not_scorable}</span>`, '', { colspan: columns.length - 3 }),
          };
        }
        const cv = x.tuning;
        const retriever = rich(
          html`${x.retriever.id}${cv ? html`<div class="meta" title="${json(cv.per_fold.map((f) => f.chosen))}">5-fold CV (held-out only): ${cv.grid} · chosen on all: ${json(cv.chosen_all)}</div>` : ''}`,
          x.retriever.id,
        );
        const d = x.vs_default;
        return {
          ...head,
          retriever,
          ...metricValues(x.metrics),
          delta: d ? rich(html`${signed(d.delta)} [${signed(d.ci95[0])}, ${signed(d.ci95[1])}]`, d.delta, { num: true, nw: true }) : '',
          beats: d
            ? rich(
                d.beats_by_more_than_half_width
                  ? html`<b>yes</b> (half-width ${fmtMetric(d.ci_half_width)})`
                  : html`no (half-width ${fmtMetric(d.ci_half_width)})`,
                d.beats_by_more_than_half_width ? 1 : 0,
              )
            : '',
          build: x.costs?.build_ms.value,
          p50: x.costs?.query_p50_ms.value,
          p99: x.costs?.query_p99_ms.value,
        };
      });
    const folds = r.retrieval.filter(isScored).flatMap((x) =>
      (x.tuning?.per_fold ?? []).map(
        (f): TableRow => ({
          corpus_id: x.corpus_id,
          arm: x.arm,
          retriever: x.retriever.id,
          fold: f.fold,
          queries: f.queries,
          chosen: json(f.chosen),
          train: f.train_recall_at_5,
          heldout: f.heldout_recall_at_5,
        }),
      ),
    );
    const blocks: Block[] = [
      {
        kind: 'paragraph',
        text:
          'Every retriever indexes the same arm text and answers the same golden queries. Means with 95% bootstrap CIs in brackets. ' +
          'Retrievers with parameters chosen from data (CV) are scored by 5-fold cross-validation: each query is ranked by the parameters ' +
          'chosen on the other four folds, so their metrics are held-out scores, never training scores. ' +
          `\u0394R@5: mean per-query recall@5 difference against ${DEFAULT_RETRIEVER_ID} with a paired bootstrap CI; "> CI half-width" compares ` +
          "that difference with the half-width of the retriever's own recall@5 CI. Build and query times are wall-clock in this run " +
          '(median of 3 builds up to 5,000 docs; one search per golden query after a warm-up pass), on this machine: compare them with each other, not across machines.',
      },
      { kind: 'paragraph', text: verdict(r) },
      { kind: 'table', id: 'retrievers-table', columns, rows },
    ];
    if (folds.length) {
      blocks.push({
        kind: 'details',
        summary: `Cross-validation folds (${folds.length} rows): chosen parameters, training and held-out recall@5`,
        blocks: [
          {
            kind: 'table',
            id: 'retrievers-folds',
            columns: [
              ...leadColumns(),
              { key: 'retriever', label: 'Retriever', type: 'key' },
              { key: 'fold', label: 'Fold', type: 'int' },
              { key: 'queries', label: 'Held-out queries', type: 'int' },
              { key: 'chosen', label: 'Chosen on the other folds', type: 'text', wide: true },
              { key: 'train', label: 'Train R@5', type: 'num', digits: 3 },
              { key: 'heldout', label: 'Held-out R@5', type: 'num', digits: 3 },
            ],
            rows: folds,
          },
        ],
      });
    }
    // the best retriever's tile is a headline (sections/headlines.ts)
    return { blocks };
  },
};
