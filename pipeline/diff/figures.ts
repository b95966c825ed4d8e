/**
 * The figures `mcpgauge diff` compares, pulled out of a report.json. One extractor per report
 * section (a list of units, data); each yields comparable figures keyed by a stable path such
 * as `retrieval/corpus-npm4-v1/baseline_json/recall_at_5` so two reports line up by key.
 */
import { DEFAULT_RETRIEVER_ID } from '../retrieval/index.ts';
import { isScored, type Figure, type Report, type LiveReport } from '../report/index.ts';

/** How a figure is judged: retrieval by its bootstrap CI, the others by a configured tolerance. */
export type FigureKind = 'retrieval' | 'tokens' | 'latency' | 'break_even' | 'errors';

/** A report Figure keyed for comparison, with how to judge it. */
export interface DiffFigure extends Figure {
  /** stable key, unique within a report */
  key: string;
  /** report section it came from, e.g. "arms", "retrieval", "live" */
  section: string;
  label: string;
  kind: FigureKind;
  /** which direction is better */
  better: 'lower' | 'higher';
}

export interface FigureExtractor {
  id: string;
  description: string;
  extract(report: Report): DiffFigure[];
}

/** Retrieval metrics compared (each carries a bootstrap CI). */
export const RETRIEVAL_METRICS = ['recall_at_1', 'recall_at_5', 'recall_at_10', 'mrr', 'ndcg_at_10', 'map'] as const;

function fromFigure(f: Figure, base: Omit<DiffFigure, 'value' | 'unit' | 'provenance'>): DiffFigure {
  const d: DiffFigure = { ...base, value: f.value, unit: f.unit, provenance: f.provenance };
  if (f.tokenizer) d.tokenizer = f.tokenizer;
  if (f.n !== undefined) d.n = f.n;
  if (f.ci95) d.ci95 = f.ci95;
  return d;
}

/** The figures of one live block (the single `live` section, or one system of a side-by-side run). */
export function liveFigures(live: LiveReport, prefix: string): DiffFigure[] {
  const out: DiffFigure[] = [];
  const section = prefix;
  for (const m of live.menus) {
    out.push(
      fromFigure(m.proxy_menu_tokens, {
        key: `${prefix}/menu/${m.tokenizer}`,
        section,
        label: `${prefix} menu tokens (${m.tokenizer})`,
        kind: 'tokens',
        better: 'lower',
        tokenizer: m.tokenizer,
      }),
    );
  }
  for (const s of live.response_summary) {
    for (const p of ['p50', 'p95'] as const) {
      out.push({
        key: `${prefix}/responses/${s.detail}/${s.tokenizer}/${p}`,
        section,
        label: `${prefix} ${s.detail} response tokens ${p} (${s.tokenizer})`,
        kind: 'tokens',
        better: 'lower',
        value: s[p],
        unit: 'tokens',
        provenance: 'measured',
        tokenizer: s.tokenizer,
        n: s.n,
      });
    }
  }
  for (const r of live.retrieval) {
    for (const m of RETRIEVAL_METRICS) {
      const f = r.summary?.[m];
      if (f)
        out.push(
          fromFigure(f, {
            key: `${prefix}/retrieval/${r.detail}/${m}`,
            section,
            label: `${prefix} ${r.detail} ${m}`,
            kind: 'retrieval',
            better: 'higher',
          }),
        );
    }
  }
  for (const l of live.latency) {
    for (const p of ['p50_ms', 'p99_ms'] as const) {
      out.push({
        key: `${prefix}/latency/${l.detail}/${p}`,
        section,
        label: `${prefix} ${l.detail} latency ${p.replace('_ms', '')}`,
        kind: 'latency',
        better: 'lower',
        value: l[p],
        unit: 'ms',
        provenance: 'measured',
        n: l.n,
      });
    }
  }
  for (const b of live.economics.break_even) {
    if (b.break_even_calls === null) continue;
    out.push({
      key: `${prefix}/break_even/${b.arm}/${b.tokenizer}`,
      section,
      label: `${prefix} break-even ${b.arm} (${b.tokenizer})`,
      kind: 'break_even',
      better: 'higher',
      value: b.break_even_calls,
      unit: 'calls',
      provenance: b.provenance,
      tokenizer: b.tokenizer,
    });
  }
  out.push({
    key: `${prefix}/errors`,
    section,
    label: `${prefix} error rows`,
    kind: 'errors',
    better: 'lower',
    value: live.responses.filter((r) => !r.ok).length,
    unit: 'rows',
    provenance: 'measured',
  });
  return out;
}

export const EXTRACTORS: readonly FigureExtractor[] = [
  {
    id: 'arms',
    description: 'listing tokens per corpus, arm and tokenizer (offline)',
    extract: (r) =>
      r.arms.flatMap((a) =>
        Object.entries(a.by_tokenizer).map(([tk, s]) =>
          fromFigure(s.total_tokens, {
            key: `arms/${a.corpus_id}/${a.arm}/${tk}`,
            section: 'arms',
            label: `${a.corpus_id} ${a.arm} listing tokens (${tk})`,
            kind: 'tokens',
            better: 'lower',
            tokenizer: tk,
          }),
        ),
      ),
  },
  {
    id: 'retrieval',
    description: 'retrieval metrics per corpus, arm and retriever (offline), judged by the bootstrap CI',
    extract: (r) =>
      r.retrieval.filter(isScored).flatMap((x) => {
        // the default retriever keeps the historical key; others add theirs (keys stay unique)
        const arm = x.retriever.id === DEFAULT_RETRIEVER_ID ? x.arm : `${x.arm}@${x.retriever.id}`;
        return RETRIEVAL_METRICS.filter((m) => x.metrics[m]).map((m) =>
          fromFigure(x.metrics[m], {
            key: `retrieval/${x.corpus_id}/${arm}/${m}`,
            section: 'retrieval',
            label: `${x.corpus_id} ${arm} ${m}`,
            kind: 'retrieval',
            better: 'higher',
          }),
        );
      }),
  },
  {
    id: 'economics',
    description: 'break-even calls per corpus, arm and tokenizer (offline, computed)',
    extract: (r) =>
      r.economics.break_even
        .filter((b) => b.break_even_calls !== null)
        .map((b) => ({
          key: `break_even/${b.corpus_id}/${b.arm}/${b.tokenizer}`,
          section: 'economics',
          label: `${b.corpus_id} ${b.arm} break-even (${b.tokenizer})`,
          kind: 'break_even' as const,
          // more calls before the full menu becomes cheaper = discovery pays off for longer
          better: 'higher' as const,
          value: b.break_even_calls as number,
          unit: 'calls',
          provenance: b.provenance,
          tokenizer: b.tokenizer,
        })),
  },
  {
    id: 'systems',
    description: 'each side-by-side system: a proxy block like the live section, direct menus and listing latency',
    extract: (r) =>
      (r.systems ?? []).flatMap((b) => {
        const prefix = `systems/${b.name}`;
        if (b.live) return liveFigures(b.live, prefix);
        if (!b.direct) return [];
        const section = prefix;
        return [
          ...b.direct.menus.map((m) =>
            fromFigure(m.menu_tokens, {
              key: `${prefix}/menu/${m.tokenizer}`,
              section,
              label: `${prefix} menu tokens (${m.tokenizer})`,
              kind: 'tokens',
              better: 'lower',
              tokenizer: m.tokenizer,
            }),
          ),
          ...(['p50_ms', 'p99_ms'] as const).map(
            (k): DiffFigure => ({
              key: `${prefix}/latency/${k}`,
              section,
              label: `${prefix} listing latency ${k.replace('_ms', '')}`,
              kind: 'latency',
              better: 'lower',
              value: b.direct!.latency[k],
              unit: 'ms',
              provenance: 'measured',
              n: b.direct!.latency.n,
            }),
          ),
        ];
      }),
  },
  {
    id: 'scale',
    description:
      'each measured scale point: menu and response tokens, discovery latency, break-even (memory and time to ready are not compared)',
    extract: (r) =>
      (r.scale?.points ?? [])
        .filter((p) => p.ok)
        .flatMap((p) => {
          const prefix = `scale/${p.system}/${p.catalog_size}`;
          const section = 'scale';
          const out: DiffFigure[] = [];
          const add = (
            key: string,
            label: string,
            kind: FigureKind,
            better: 'lower' | 'higher',
            value: number | null | undefined,
            unit: string,
            provenance: DiffFigure['provenance'],
            tokenizer?: string,
          ) => {
            if (typeof value !== 'number') return;
            const f: DiffFigure = {
              key: `${prefix}/${key}`,
              section,
              label: `${p.system} N=${p.catalog_size} ${label}`,
              kind,
              better,
              value,
              unit,
              provenance,
            };
            if (tokenizer) f.tokenizer = tokenizer;
            out.push(f);
          };
          for (const [tk, v] of Object.entries(p.menu_tokens ?? {}))
            add(`menu/${tk}`, `menu tokens (${tk})`, 'tokens', 'lower', v, 'tokens', 'measured', tk);
          for (const [tk, v] of Object.entries(p.response_tokens ?? {})) {
            add(`responses/${tk}/p50`, `response tokens p50 (${tk})`, 'tokens', 'lower', v.p50, 'tokens', 'measured', tk);
            add(`responses/${tk}/p95`, `response tokens p95 (${tk})`, 'tokens', 'lower', v.p95, 'tokens', 'measured', tk);
          }
          add('latency/p50_ms', 'latency p50', 'latency', 'lower', p.latency?.p50_ms, 'ms', 'measured');
          add('latency/p99_ms', 'latency p99', 'latency', 'lower', p.latency?.p99_ms, 'ms', 'measured');
          for (const [tk, v] of Object.entries(p.break_even_calls ?? {}))
            add(`break_even/${tk}`, `break-even (${tk})`, 'break_even', 'higher', v, 'calls', 'computed', tk);
          return out;
        }),
  },
  {
    id: 'live',
    description: 'the live section: menu and response tokens, live retrieval, latency, break-even, error rows',
    extract: (r) => (r.live ? liveFigures(r.live, 'live') : []),
  },
];

/** Every comparable figure of a report, in extractor order; keys are unique. */
export function reportFigures(report: Report, extractors: readonly FigureExtractor[] = EXTRACTORS): DiffFigure[] {
  const out: DiffFigure[] = [];
  const seen = new Set<string>();
  for (const e of extractors) {
    for (const f of e.extract(report)) {
      if (seen.has(f.key)) throw new Error(`diff: figure key ${f.key} produced twice (extractor ${e.id})`);
      seen.add(f.key);
      out.push(f);
    }
  }
  return out;
}
