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
import { armOrMode, chartColors, colorsBy as by, paletteOf, type ColorKind } from '../palette.ts';
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
  return l.economics.break_even.flatMap((b) =>
    sampledCurveOfRow(b).map((p) => ({ corpus_id: label(b.corpus_id), arm: b.arm, tokenizer: b.tokenizer, ...p })),
  );
}

/** Colours of a label field (e.g. "corpus · arm") named by another field of the same row. */
function byRowField(r: Report, rows: readonly Row[], field: string, idField: string, kind: ColorKind) {
  const idOf = new Map(rows.map((x) => [String(x[field]), String(x[idField])]));
  return chartColors(rows, field, (v) => ({ kind, id: idOf.get(v)! }), paletteOf(r));
}

export const CHARTS: readonly ChartEntry[] = [
  {
    spec: 'tokens_per_arm',
    data: (r) => {
      const order = armOrder(r);
      const rows = r.arms
        .filter((a) => !a.skipped)
        .flatMap((a) =>
          Object.entries(a.by_tokenizer).map(([t, s]) => ({
            corpus: a.corpus_id,
            arm: a.arm,
            tokenizer: t,
            total_tokens: s.total_tokens.value,
            order: order.get(a.arm)!,
          })),
        );
      return { rows, color: by(r, rows, 'tokenizer', 'tokenizer'), empty: 'no arm produced token counts (every arm skipped or no corpus)' };
    },
  },
  {
    spec: 'per_tool_distribution',
    data: (r) => {
      const order = armOrder(r);
      const rows = r.arms
        .filter((a) => !a.skipped)
        .flatMap((a) =>
          Object.entries(a.by_tokenizer).flatMap(([t, s]) => {
            const v = s.per_tool_tokens.filter((x): x is number => x !== null);
            if (v.length === 0) return [];
            return [
              {
                corpus: a.corpus_id,
                arm: a.arm,
                tokenizer: t,
                order: order.get(a.arm)!,
                n: v.length,
                min: percentile(v, 0),
                p25: percentile(v, 25),
                p50: percentile(v, 50),
                p75: percentile(v, 75),
                p95: percentile(v, 95),
                max: percentile(v, 100),
              },
            ];
          }),
        );
      return { rows, color: by(r, rows, 'tokenizer', 'tokenizer'), empty: 'no per-tool token counts' };
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
        // the legend names each point (text labels beside the points overlapped where arms sit close)
        rows.push({
          series: series(arm.corpus_id, label),
          arm: arm.arm,
          corpus: arm.corpus_id,
          tokenizer: tok,
          savings_pct: sav.value,
          recall_at_5: rec.value,
          lo: rec.ci95?.[0] ?? rec.value,
          hi: rec.ci95?.[1] ?? rec.value,
        });
      }
      return {
        rows,
        color: byRowField(r, rows, 'series', 'arm', 'arm'),
        note: `savings under ${tok}`,
        empty: 'no arm has both token savings and retrieval scores (no golden set?)',
      };
    },
  },
  {
    spec: 'recall_curves',
    data: (r) => {
      const series = seriesLabel(r);
      // arms whose curves are identical (an index they do not alter) share one line, named
      // "a = b", so the legend lists no line that cannot be seen
      const groups = new Map<string, { corpus: string; arms: string[]; values: number[] }>();
      for (const s of scoredOf(r)) {
        const values = RECALL_KS.map((k) => s.metrics[`recall_at_${k}`].value);
        const key = `${s.corpus_id}\u0000${values.join(',')}`;
        const g = groups.get(key);
        if (g) g.arms.push(s.arm);
        else groups.set(key, { corpus: s.corpus_id, arms: [s.arm], values });
      }
      const rows = [...groups.values()].flatMap((g) =>
        RECALL_KS.map((k, i) => ({ series: series(g.corpus, g.arms.join(' = ')), arm: g.arms[0], k, recall: g.values[i] })),
      );
      return { rows, color: byRowField(r, rows, 'series', 'arm', 'arm'), empty: 'no corpus with a golden set was scored' };
    },
  },
  {
    spec: 'retriever_recall',
    data: (r) => {
      const order = new Map<string, number>();
      for (const x of r.retrieval) if (x.retriever && !order.has(x.retriever.id)) order.set(x.retriever.id, order.size);
      const rows = r.retrieval.filter(isScored).map((x) => {
        const f = x.metrics.recall_at_5;
        return {
          corpus: x.corpus_id,
          retriever: x.tuning ? `${x.retriever.id} (CV)` : x.retriever.id,
          order: order.get(x.retriever.id)!,
          arm: x.arm,
          value: f.value,
          lo: f.ci95?.[0] ?? f.value,
          hi: f.ci95?.[1] ?? f.value,
        };
      });
      return { rows, color: by(r, rows, 'arm', 'arm'), empty: 'no retriever was scored (no golden set)' };
    },
  },
  {
    spec: 'break_even',
    data: (r) => {
      const tok = primaryTokenizer(r);
      const rows = [...r.economics.curves, ...liveCurves(r)]
        .filter((c) => c.tokenizer === tok)
        .flatMap((c) => [
          { corpus: c.corpus_id, arm: c.arm, series: 'full menu', calls: c.calls, tokens: c.full_menu_tokens },
          { corpus: c.corpus_id, arm: c.arm, series: 'discovery', calls: c.calls, tokens: c.discovery_tokens },
        ]);
      return {
        rows,
        color: chartColors(rows, 'arm', armOrMode, paletteOf(r)),
        note: tok,
        empty: 'no break-even curves (economics not computed)',
      };
    },
  },
  {
    spec: 'result_tokens',
    data: (r) => {
      const rows = r.results ? resultChartRows(r.results) : [];
      return { rows, color: by(r, rows, 'tokenizer', 'tokenizer'), empty: 'no result fixtures profiled (bench --result-fixtures none)' };
    },
  },
  {
    spec: 'live_components',
    live: true,
    data: (r) => {
      const tok = primaryTokenizer(r);
      const comps = ['input_schemas', 'descriptions', 'usage_instructions', 'metadata', 'other'] as const;
      const rows = (r.live?.responses ?? [])
        .filter((x) => x.ok && x.tokenizer === tok && x.components)
        .flatMap((x) =>
          comps.map((c, i) => ({ detail: x.detail, query_id: x.query_id, component: c, component_order: i, tokens: x.components![c] })),
        );
      return { rows, color: by(r, rows, 'component', 'component'), note: tok, empty: 'no successful discovery responses' };
    },
  },
  {
    spec: 'live_full_vs_compact',
    live: true,
    data: (r) => {
      const stats = ['p50', 'p95', 'p99', 'max', 'mean'] as const;
      const rows = (r.live?.response_summary ?? [])
        .filter((s) => s.n > 0)
        .flatMap((s) => stats.map((st, i) => ({ tokenizer: s.tokenizer, detail: s.detail, stat: st, order: i, tokens: s[st] })));
      return { rows, color: by(r, rows, 'detail', 'mode'), empty: 'no response summaries' };
    },
  },
  {
    spec: 'live_retrieval',
    live: true,
    data: (r) => {
      const metrics = ['recall_at_1', 'recall_at_3', 'recall_at_5', 'recall_at_10', 'mrr', 'ndcg_at_10', 'map'] as const;
      const label = (m: string) =>
        m.replace('recall_at_', 'R@').replace('ndcg_at_10', 'nDCG@10').replace('mrr', 'MRR').replace('map', 'MAP');
      const sources: { source: string; kind: ColorKind; id: string; m: RetrievalMetrics }[] = [];
      const live = r.live;
      if (live) {
        const off = scoredOf(r, live.proxy.retriever).find(
          (s) => s.arm === BASELINE_ARM_ID && (live.corpus_id === undefined || s.corpus_id === live.corpus_id),
        );
        if (off) sources.push({ source: `offline ${off.retriever.id} (${off.arm})`, kind: 'arm', id: off.arm, m: off.metrics });
        for (const lr of live.retrieval)
          if (lr.summary) sources.push({ source: `proxy (${lr.detail})`, kind: 'mode', id: lr.detail, m: lr.summary });
      }
      const hasProxy = sources.some((s) => s.kind === 'mode');
      const rows = hasProxy
        ? sources.flatMap((s) =>
            metrics.map((m, i) => ({
              metric: label(m),
              order: i,
              source: s.source,
              value: s.m[m].value,
              lo: s.m[m].ci95?.[0] ?? s.m[m].value,
              hi: s.m[m].ci95?.[1] ?? s.m[m].value,
            })),
          )
        : [];
      const named = new Map(sources.map((s) => [s.source, { kind: s.kind, id: s.id }]));
      return {
        rows,
        color: chartColors(rows, 'source', (v) => named.get(v)!, paletteOf(r)),
        empty: 'the proxy ranking was not scored (no golden set for the live corpus)',
      };
    },
  },
  {
    spec: 'live_latency',
    live: true,
    data: (r) => {
      const stats = ['p50_ms', 'p95_ms', 'p99_ms', 'max_ms'] as const;
      // log scale: clamp to 1 µs so a 0 ms reading still draws
      const rows = (r.live?.latency ?? [])
        .filter((l) => l.n > 0)
        .flatMap((l) => stats.map((st, i) => ({ detail: l.detail, stat: st.replace('_ms', ''), order: i, ms: Math.max(0.001, l[st]) })));
      return { rows, color: by(r, rows, 'detail', 'mode'), empty: 'no latency samples' };
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
