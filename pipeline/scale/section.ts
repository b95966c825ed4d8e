/**
 * Cost growth vs catalog size (`--scale`): the measured points per (system, N), the fitted
 * growth exponents (computed), where break-even lands for each N, failed points with their
 * reason, and log-x growth charts (one colour per system, as in the side-by-side charts).
 */
import {
  colorsBy,
  primaryTokenizer,
  systemOrder,
  type Block,
  type ChartRef,
  type ReportSection,
  type Report,
  type ScalePoint,
  type ScaleReport,
} from '../report/index.ts';
import { FITTED_FIGURES } from './fit.ts';

/** the growth chart spec (reports-template/charts/scale_growth.vl.json) */
export const SCALE_CHART = 'scale_growth';

const LABELS: Record<string, string> = {
  menu_tokens: 'menu tokens',
  response_tokens_p50: 'response tokens p50',
  response_tokens_p95: 'response tokens p95',
  break_even_calls: 'break-even calls',
  ready_ms: 'time to ready (ms)',
  latency_p50_ms: 'latency p50 (ms)',
  latency_p99_ms: 'latency p99 (ms)',
  rss_mb: 'proxy RSS (MB)',
};

/** Growth-chart rows: one per (figure, system, N) with a positive value (log axes). */
export function growthRows(r: Report): Record<string, string | number | null>[] {
  const s = r.scale;
  if (!s) return [];
  const tk = primaryTokenizer(r);
  const order = systemOrder(r);
  const out: Record<string, string | number | null>[] = [];
  FITTED_FIGURES.forEach((f, fi) => {
    for (const p of s.points) {
      if (!p.ok) continue;
      const v = f.value(p, tk);
      if (typeof v === 'number' && v > 0)
        out.push({
          figure: LABELS[f.figure] ?? f.figure,
          figure_order: fi,
          system: p.system,
          system_order: order.get(p.system) ?? 0,
          n: p.upstream_tools,
          value: v,
        });
    }
  });
  return out;
}

const pointRow = (p: ScalePoint, tk: string) => ({
  system: p.system,
  catalog_size: p.catalog_size,
  upstream_tools: p.upstream_tools,
  status: p.ok ? 'ok' : `failed: ${p.error ?? ''}`,
  listed_tools: p.listed_tools,
  menu_tokens: p.menu_tokens?.[tk],
  full_menu_tokens: p.full_menu_tokens?.[tk],
  response_p50: p.response_tokens?.[tk]?.p50,
  response_p95: p.response_tokens?.[tk]?.p95,
  ready_ms: p.ready_ms,
  latency_p50_ms: p.latency?.p50_ms,
  latency_p99_ms: p.latency?.p99_ms,
  latency_n: p.latency?.n,
  rss_mb: p.rss_mb,
  rss_peak_mb: p.rss_peak_mb,
  break_even: p.break_even_calls?.[tk],
  errors: p.errors,
  wall_s: p.wall_ms / 1000,
});

export const scaleSection: ReportSection<Report> = {
  id: 'scale',
  title: 'Cost growth vs catalog size',
  provenanceKeys: ['scale.points', 'scale.fits', 'scale.break_even'],
  schemaRefs: ['#/$defs/scale', '#/$defs/scale_point', '#/$defs/scale_fit'],
  appliesTo: (r) => r.scale !== undefined,
  /** one line per growth fit (first tokenizer, or none) */
  summary: (r) => {
    const tk = r.meta.tokenizers[0]?.name;
    return (r.scale?.fits ?? [])
      .filter((f) => f.tokenizer === undefined || f.tokenizer === tk)
      .map((f) => `growth ${f.system} ${f.figure}: exponent ${f.exponent} (R² ${f.r2}, ${f.n} points, computed)`);
  },
  build(r) {
    const s = r.scale!;
    const tk = primaryTokenizer(r);
    const rows = growthRows(r);
    const chart: ChartRef = {
      kind: 'chart',
      spec: SCALE_CHART,
      rows,
      color: colorsBy(r, rows, 'system', 'system'),
      note: tk,
      empty: 'no point was measured',
    };
    const failed = s.points.filter((p) => !p.ok);
    const blocks: Block[] = [
      catalogBlock(s),
      ...(failed.length
        ? [
            {
              kind: 'banner' as const,
              tone: 'warn' as const,
              title: `${failed.length} point(s) failed`,
              text: failed.map((p) => `${p.system} at N=${p.catalog_size}: ${p.error}`).join('; '),
            },
          ]
        : []),
      { kind: 'charts', charts: [chart] },
      { kind: 'heading', text: 'Growth exponents (log-log slope against upstream tools)', provenance: r.provenance['scale.fits'] },
      fitsTable(s),
      { kind: 'heading', text: `Measured points (${tk})`, provenance: r.provenance['scale.points'] },
      pointsTable(s, tk),
      { kind: 'heading', text: 'Where break-even lands for each N', provenance: r.provenance['scale.break_even'] },
      {
        kind: 'paragraph',
        text: "break-even calls = (full menu − the system's menu) / its mean discovery response, per catalog size: below that many discovery calls per session the proxy costs fewer tokens than the full menu.",
      },
      breakEvenTable(s, tk),
      { kind: 'list', items: s.notes },
    ];
    return { blocks };
  },
};

/** what was swept: catalog, query set, systems and the point deadline */
function catalogBlock(s: ScaleReport): Block {
  return {
    kind: 'kv',
    items: [
      {
        label: 'Catalog',
        value: `${s.catalog.corpus_id} (${s.catalog.source}), seed ${s.catalog.seed}, sizes ${s.catalog.sizes.join(', ')}, tools/list pages of ${s.catalog.page_size}`,
      },
      {
        label: 'Queries',
        value: `${s.queries.ids.length} golden queries (${s.queries.source}), limit ${s.queries.limit}, detail ${s.queries.detail}, ${s.queries.runs} run(s) after ${s.queries.warmup} warm-up`,
      },
      { label: 'Systems', value: s.systems.map((x) => `${x.name} (${x.spec})`).join(', ') },
      { label: 'Point deadline', value: `${s.point_timeout_ms} ms` },
    ],
  };
}

/** the fitted growth exponents, one row per (system, figure, tokenizer) */
function fitsTable(s: ScaleReport): Block {
  return {
    kind: 'table',
    id: 'scale-fits',
    columns: [
      { key: 'system', label: 'System', type: 'key' },
      { key: 'figure', label: 'Figure', type: 'ident' },
      { key: 'tokenizer', label: 'Tokenizer', type: 'ident' },
      { key: 'exponent', label: 'Exponent', type: 'num', digits: 3 },
      { key: 'r2', label: 'R²', type: 'num', digits: 3 },
      { key: 'n', label: 'Points', type: 'int' },
      { key: 'provenance', label: 'Provenance', type: 'ident' },
    ],
    rows: s.fits.map((f) => ({ ...f, tokenizer: f.tokenizer ?? '—' })),
  };
}

/** every measured point in the primary tokenizer, failed ones marked */
function pointsTable(s: ScaleReport, tk: string): Block {
  return {
    kind: 'table',
    id: 'scale-points',
    columns: [
      { key: 'system', label: 'System', type: 'key' },
      { key: 'catalog_size', label: 'N', type: 'int' },
      { key: 'upstream_tools', label: 'Upstream tools', type: 'int' },
      { key: 'status', label: 'Status', type: 'text' },
      { key: 'listed_tools', label: 'Listed', type: 'int' },
      { key: 'menu_tokens', label: 'Menu tokens', type: 'int' },
      { key: 'full_menu_tokens', label: 'Full menu', type: 'int' },
      { key: 'response_p50', label: 'Resp. p50', type: 'num', digits: 0 },
      { key: 'response_p95', label: 'Resp. p95', type: 'num', digits: 0 },
      { key: 'ready_ms', label: 'Ready ms', type: 'num', digits: 0 },
      { key: 'latency_p50_ms', label: 'p50 ms', type: 'num', digits: 2 },
      { key: 'latency_p99_ms', label: 'p99 ms', type: 'num', digits: 2 },
      { key: 'latency_n', label: 'n', type: 'int' },
      { key: 'rss_mb', label: 'RSS MB', type: 'num', digits: 1 },
      { key: 'rss_peak_mb', label: 'Peak MB', type: 'num', digits: 1 },
      { key: 'break_even', label: 'Break-even', type: 'num', digits: 1 },
      { key: 'errors', label: 'Errors', type: 'int' },
      { key: 'wall_s', label: 'Wall s', type: 'num', digits: 1 },
    ],
    rows: s.points.map((p) => pointRow(p, tk)),
    rowClasses: s.points.map((p) => (p.ok ? '' : 'err')),
  };
}

/** where break-even lands for each N (ok points with a break-even only) */
function breakEvenTable(s: ScaleReport, tk: string): Block {
  return {
    kind: 'table',
    id: 'scale-break-even',
    columns: [
      { key: 'catalog_size', label: 'N', type: 'int' },
      { key: 'system', label: 'System', type: 'key' },
      { key: 'full_menu_tokens', label: 'Full menu', type: 'int' },
      { key: 'menu_tokens', label: 'Menu', type: 'int' },
      { key: 'mean', label: 'Mean response', type: 'num', digits: 1 },
      { key: 'break_even', label: 'Break-even calls', type: 'num', digits: 1 },
    ],
    rows: s.points
      .filter((p) => p.ok && p.break_even_calls)
      .map((p) => ({
        catalog_size: p.catalog_size,
        system: p.system,
        full_menu_tokens: p.full_menu_tokens?.[tk],
        menu_tokens: p.menu_tokens?.[tk],
        mean: p.response_tokens?.[tk]?.mean,
        break_even: p.break_even_calls?.[tk],
      })),
  };
}
