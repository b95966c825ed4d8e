/**
 * The chart grid: one entry per chart spec (reports-template/charts/<spec>.vl.json) with the
 * function that turns the report into its rows. Live charts only when the report has `live`.
 */
import { BASELINE_ARM_ID } from '../../constants.ts';
import { percentile } from '../../util/stats.ts';
import { sampledCurveOfRow } from '../../economics/breakeven.ts';
import type { ChartRef, ReportSection } from '../details.ts';
import { isScored, type BreakEvenCurvePoint, type Report, type RetrievalMetrics } from '../types.ts';
import { primaryTokenizer } from './common.ts';
import { resultChartRows } from './results.ts';

type Row = Record<string, string | number | null>;
interface ChartEntry {
  spec: string;
  live?: boolean;
  data(r: Report): Omit<ChartRef, 'kind' | 'spec'>;
}

function armOrder(r: Report): Map<string, number> {
  const m = new Map<string, number>();
  for (const a of r.arms) if (!m.has(a.arm)) m.set(a.arm, m.size);
  return m;
}

/** "corpus · arm" when several corpora were scored, else the arm (legend labels) */
function seriesLabel(r: Report): (corpus: string, arm: string) => string {
  const multiCorpus = new Set(r.retrieval.filter(isScored).map((s) => s.corpus_id)).size > 1;
  return (corpus, arm) => (multiCorpus ? `${corpus} · ${arm}` : arm);
}

const RECALL_KS = [1, 3, 5, 10] as const;

/**
 * The scored rows of one retriever (default: the first scored one, which fed the simulated
 * responses); the retriever comparison has its own section and chart (sections/retrievers.ts).
 */
function scoredOf(r: Report, retriever?: string) {
  const scored = r.retrieval.filter(isScored);
  const id = retriever ?? scored[0]?.retriever.id;
  return scored.filter((s) => s.retriever.id === id);
}

/**
 * Break-even curves of the live section: the `curves` the live stage stored; a report written
 * before it stored them gets the economics module's sampled curve of each stored break-even row
 * (economics/breakeven.ts sampledCurveOfRow). Labelled "live · <corpus>" so they sit in their
 * own chart row.
 */
function liveCurves(r: Report): BreakEvenCurvePoint[] {
  const l = r.live;
  if (!l) return [];
  const label = (c: string) => `live · ${c}`;
  if (l.economics.curves?.length) return l.economics.curves.map((c) => ({ ...c, corpus_id: label(c.corpus_id) }));
  return l.economics.break_even.flatMap((b) => sampledCurveOfRow(b).map((p) => ({ corpus_id: label(b.corpus_id), arm: b.arm, tokenizer: b.tokenizer, ...p })));
}

export const CHARTS: readonly ChartEntry[] = [
  {
    spec: 'tokens_per_arm',
    data: (r) => {
      const order = armOrder(r);
      return {
        rows: r.arms.filter((a) => !a.skipped).flatMap((a) =>
          Object.entries(a.by_tokenizer).map(([t, s]) => ({ corpus: a.corpus_id, arm: a.arm, tokenizer: t, total_tokens: s.total_tokens.value, order: order.get(a.arm)! })),
        ),
        empty: 'no arm produced token counts (every arm skipped or no corpus)',
      };
    },
  },
  {
    spec: 'per_tool_distribution',
    data: (r) => {
      const order = armOrder(r);
      return {
        rows: r.arms.filter((a) => !a.skipped).flatMap((a) =>
          Object.entries(a.by_tokenizer).flatMap(([t, s]) => {
            const v = s.per_tool_tokens.filter((x): x is number => x !== null);
            if (v.length === 0) return [];
            return [{
              corpus: a.corpus_id, arm: a.arm, tokenizer: t, order: order.get(a.arm)!, n: v.length,
              min: percentile(v, 0), p25: percentile(v, 25), p50: percentile(v, 50), p75: percentile(v, 75), p95: percentile(v, 95), max: percentile(v, 100),
            }];
          }),
        ),
        empty: 'no per-tool token counts',
      };
    },
  },
  {
    spec: 'savings_vs_recall',
    data: (r) => {
      const tok = primaryTokenizer(r);
      const scored = scoredOf(r);
      const series = seriesLabel(r);
      const rows: Row[] = [];
      for (const arm of r.arms) {
        if (arm.skipped) continue;
        const sav = arm.by_tokenizer[tok]?.savings_vs_baseline_pct;
        if (!sav) continue;
        // an arm that does not alter the index ranks exactly like the baseline: plot it at the
        // baseline's recall, labelled so, instead of leaving it off the chart
        let s = scored.find((x) => x.corpus_id === arm.corpus_id && x.arm === arm.arm);
        let label = arm.arm;
        if (!s && !arm.index_altering) {
          s = scored.find((x) => x.corpus_id === arm.corpus_id && x.arm === BASELINE_ARM_ID);
          label = `${arm.arm} (same index)`;
        }
        if (!s) continue;
        const rec = s.metrics.recall_at_5;
        rows.push({
          series: series(arm.corpus_id, arm.arm), arm: label, corpus: arm.corpus_id, tokenizer: tok, savings_pct: sav.value,
          recall_at_5: rec.value, lo: rec.ci95?.[0] ?? rec.value, hi: rec.ci95?.[1] ?? rec.value, label_below: 0,
        });
      }
      // alternate label placement along x so neighbouring labels do not overlap
      [...rows].sort((a, b) => (a.savings_pct as number) - (b.savings_pct as number)).forEach((row, i) => { row.label_below = i % 2; });
      return { rows, note: `savings under ${tok}`, empty: 'no arm has both token savings and retrieval scores (no golden set?)' };
    },
  },
  {
    spec: 'recall_curves',
    data: (r) => {
      const series = seriesLabel(r);
      return {
        rows: scoredOf(r).flatMap((s) => RECALL_KS.map((k) => ({ series: series(s.corpus_id, s.arm), k, recall: s.metrics[`recall_at_${k}`].value }))),
        empty: 'no corpus with a golden set was scored',
      };
    },
  },
  {
    spec: 'retriever_recall',
    data: (r) => {
      const order = new Map<string, number>();
      for (const x of r.retrieval) if (x.retriever && !order.has(x.retriever.id)) order.set(x.retriever.id, order.size);
      return {
        rows: r.retrieval.filter(isScored).map((x) => {
          const f = x.metrics.recall_at_5;
          return { corpus: x.corpus_id, retriever: x.tuning ? `${x.retriever.id} (CV)` : x.retriever.id, order: order.get(x.retriever.id)!, arm: x.arm, value: f.value, lo: f.ci95?.[0] ?? f.value, hi: f.ci95?.[1] ?? f.value };
        }),
        empty: 'no retriever was scored (no golden set)',
      };
    },
  },
  {
    spec: 'break_even',
    data: (r) => {
      const tok = primaryTokenizer(r);
      return {
        rows: [...r.economics.curves, ...liveCurves(r)]
          .filter((c) => c.tokenizer === tok)
          .flatMap((c) => [
            { corpus: c.corpus_id, arm: c.arm, series: 'full menu', calls: c.calls, tokens: c.full_menu_tokens },
            { corpus: c.corpus_id, arm: c.arm, series: 'discovery', calls: c.calls, tokens: c.discovery_tokens },
          ]),
        note: tok,
        empty: 'no break-even curves (economics not computed)',
      };
    },
  },
  {
    spec: 'result_tokens',
    data: (r) => ({
      rows: r.results ? resultChartRows(r.results) : [],
      empty: 'no result fixtures profiled (bench --result-fixtures none)',
    }),
  },
  {
    spec: 'live_components',
    live: true,
    data: (r) => {
      const tok = primaryTokenizer(r);
      const comps = ['input_schemas', 'descriptions', 'usage_instructions', 'metadata', 'other'] as const;
      return {
        rows: (r.live?.responses ?? [])
          .filter((x) => x.ok && x.tokenizer === tok && x.components)
          .flatMap((x) => comps.map((c, i) => ({ detail: x.detail, query_id: x.query_id, component: c, component_order: i, tokens: x.components![c] }))),
        note: tok,
        empty: 'no successful discovery responses',
      };
    },
  },
  {
    spec: 'live_full_vs_compact',
    live: true,
    data: (r) => {
      const stats = ['p50', 'p95', 'p99', 'max', 'mean'] as const;
      return {
        rows: (r.live?.response_summary ?? [])
          .filter((s) => s.n > 0)
          .flatMap((s) => stats.map((st, i) => ({ tokenizer: s.tokenizer, detail: s.detail, stat: st, order: i, tokens: s[st] }))),
        empty: 'no response summaries',
      };
    },
  },
  {
    spec: 'live_retrieval',
    live: true,
    data: (r) => {
      const metrics = ['recall_at_1', 'recall_at_3', 'recall_at_5', 'recall_at_10', 'mrr', 'ndcg_at_10', 'map'] as const;
      const label = (m: string) => m.replace('recall_at_', 'R@').replace('ndcg_at_10', 'nDCG@10').replace('mrr', 'MRR').replace('map', 'MAP');
      const sources: { source: string; m: RetrievalMetrics }[] = [];
      const live = r.live;
      if (live) {
        const off = scoredOf(r, live.proxy.retriever).find((s) => s.arm === BASELINE_ARM_ID && (live.corpus_id === undefined || s.corpus_id === live.corpus_id));
        if (off) sources.push({ source: `offline ${off.retriever.id} (${off.arm})`, m: off.metrics });
        for (const lr of live.retrieval) if (lr.summary) sources.push({ source: `proxy (${lr.detail})`, m: lr.summary });
      }
      const hasProxy = sources.some((s) => s.source.startsWith('proxy'));
      return {
        rows: hasProxy
          ? sources.flatMap((s) => metrics.map((m, i) => ({ metric: label(m), order: i, source: s.source, value: s.m[m].value, lo: s.m[m].ci95?.[0] ?? s.m[m].value, hi: s.m[m].ci95?.[1] ?? s.m[m].value })))
          : [],
        empty: 'the proxy ranking was not scored (no golden set for the live corpus)',
      };
    },
  },
  {
    spec: 'live_latency',
    live: true,
    data: (r) => {
      const stats = ['p50_ms', 'p95_ms', 'p99_ms', 'max_ms'] as const;
      return {
        // log scale: clamp to 1 µs so a 0 ms reading still draws
        rows: (r.live?.latency ?? []).filter((l) => l.n > 0).flatMap((l) => stats.map((st, i) => ({ detail: l.detail, stat: st.replace('_ms', ''), order: i, ms: Math.max(0.001, l[st]) }))),
        empty: 'no latency samples',
      };
    },
  },
];

/** The chart references this report gets (live charts only when `live` exists). */
export function chartRefs(r: Report): ChartRef[] {
  return CHARTS.filter((c) => !c.live || r.live).map((c) => ({ kind: 'chart', spec: c.spec, ...c.data(r) }));
}

export const chartsSection: ReportSection<Report> = {
  id: 'charts',
  title: 'Charts',
  provenanceKeys: [],
  schemaRefs: ['#/$defs/arm', '#/$defs/retrieval', '#/$defs/economics', '#/$defs/live'],
  build: (r) => ({ blocks: [{ kind: 'charts', charts: chartRefs(r) }] }),
};
