/**
 * Renders a (valid) report into ONE self-contained dashboard.html: no network loads at all.
 *
 * Charts: each Vega-Lite spec in reports-template/charts/*.vl.json (no data in the file) gets
 * its data injected, is compiled to Vega with `vega-lite` and pre-rendered to static SVG in
 * Node with vega's View.toSVG(). Why pre-render instead of inlining the Vega runtime
 * (vega.min.js, ~520 kB): the page needs no chart JavaScript at all (nothing can fail or
 * fetch at view time, and the CSP can forbid everything but one hashed inline script), the
 * file stays small, and the output is deterministic for a given report. What is lost is hover
 * tooltips; every number shown in a chart is also in a table.
 *
 * Tables are sortable by clicking a header (small inline script, allowed by its CSP hash).
 * All text from the report is HTML-escaped.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as vega from 'vega';
import { compile, type TopLevelSpec, type Config } from 'vega-lite';
import { percentile } from '../util/stats.ts';
import type {
  BreakEvenCurvePoint,
  Figure,
  Provenance,
  QueryRow,
  Report,
  RetrievalMetrics,
  RetrievalScored,
} from './types.ts';
import { isScored } from './types.ts';

export const TEMPLATE_DIR = fileURLToPath(new URL('../../reports-template/', import.meta.url));

// ---------------------------------------------------------------------------------------------
// small helpers

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** HTML-escape any text (element content and attribute values). */
export function esc(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ESC[c]);
}

function fmtInt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}
function fmtNum(x: number, digits = 1): string {
  if (Number.isInteger(x) && Math.abs(x) >= 1000) return fmtInt(x);
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
function fmtMetric(x: number): string {
  return x.toFixed(3);
}

function badge(p: Provenance | undefined): string {
  if (!p) return '';
  return `<span class="badge ${p}" title="${esc(PROVENANCE_HELP[p])}">${p}</span>`;
}
const PROVENANCE_HELP: Record<Provenance, string> = {
  measured: 'measured: counted or observed directly in this run',
  computed: 'computed: derived by a formula from measured numbers',
  estimated: 'estimated: a model with assumptions (e.g. retry rate, calls per session)',
};

/** A table cell: display html plus an optional sort key (numbers sort numerically). */
interface Cell {
  html: string;
  /** keep on one line (ids) */
  nw?: boolean;
  /** free text that needs room (queries) */
  wide?: boolean;
  sort?: number | string | null;
  num?: boolean;
  colspan?: number;
}
const txt = (s: unknown): Cell => ({ html: esc(s ?? ''), sort: s === undefined || s === null ? '' : String(s) });
/** an identifier cell (corpus, arm, query id, tokenizer): never wrapped */
const ident = (s: string): Cell => ({ ...txt(s), nw: true });
const int = (x: number | null | undefined): Cell =>
  x === null || x === undefined ? { html: '<span class="muted">—</span>', sort: null, num: true } : { html: fmtInt(x), sort: x, num: true };
const num = (x: number | null | undefined, d = 1, cls = ''): Cell =>
  x === null || x === undefined
    ? { html: '<span class="muted">—</span>', sort: null, num: true }
    : { html: cls ? `<span class="${cls}">${fmtNum(x, d)}</span>` : fmtNum(x, d), sort: x, num: true };

function figCell(f: Figure | undefined, opts: { digits?: number; pct?: boolean; metric?: boolean; withBadge?: boolean } = {}): Cell {
  if (!f) return { html: '<span class="muted">—</span>', sort: null, num: true };
  const v = opts.metric ? fmtMetric(f.value) : opts.digits !== undefined ? fmtNum(f.value, opts.digits) : fmtInt(f.value);
  const cls = opts.pct && f.value < 0 ? ' class="neg"' : '';
  const ci = f.ci95 ? ` <span class="ci">[${opts.metric ? fmtMetric(f.ci95[0]) : fmtNum(f.ci95[0], 1)}, ${opts.metric ? fmtMetric(f.ci95[1]) : fmtNum(f.ci95[1], 1)}]</span>` : '';
  const title = `${f.value} ${f.unit} (${f.provenance}${f.tokenizer ? `, ${f.tokenizer}` : ''}${f.n !== undefined ? `, n=${f.n}` : ''})`;
  return {
    html: `<span${cls} title="${esc(title)}">${v}${opts.pct ? '%' : ''}</span>${ci}${opts.withBadge ? badge(f.provenance) : ''}`,
    sort: f.value,
    num: true,
  };
}

interface TableOpts {
  id?: string;
  caption?: string;
  rowClass?: (i: number) => string;
}
function table(headers: string[], rows: Cell[][], opts: TableOpts = {}): string {
  const th = headers.map((h) => `<th class="sortable" scope="col">${esc(h)}</th>`).join('');
  const body = rows
    .map((r, i) => {
      const cls = opts.rowClass?.(i) ?? '';
      const tds = r
        .map((c) => {
          const sortAttr = c.sort === undefined ? '' : ` data-v="${esc(c.sort === null ? '' : c.sort)}"`;
          const span = c.colspan ? ` colspan="${c.colspan}"` : '';
          const cls = [c.num ? 'num' : '', c.nw ? 'nw' : '', c.wide ? 'wide' : ''].filter(Boolean).join(' ');
          return `<td${cls ? ` class="${cls}"` : ''}${sortAttr}${span}>${c.html}</td>`;
        })
        .join('');
      return `<tr${cls ? ` class="${cls}"` : ''}>${tds}</tr>`;
    })
    .join('\n');
  const empty = rows.length === 0 ? `<tr><td colspan="${headers.length}" class="muted">no rows</td></tr>` : '';
  return `<div class="tablewrap"><table${opts.id ? ` id="${esc(opts.id)}"` : ''} class="sortable-table">${opts.caption ? `<caption class="meta">${esc(opts.caption)}</caption>` : ''}<thead><tr>${th}</tr></thead><tbody>${body}${empty}</tbody></table></div>`;
}

function section(id: string, title: string, prov: Provenance | undefined, inner: string): string {
  return `<section id="${esc(id)}"><h2>${esc(title)}${badge(prov)}</h2>\n${inner}\n</section>`;
}

function tile(label: string, value: string, sub: string, prov?: Provenance): string {
  return `<div class="tile"><div class="k">${esc(label)}${badge(prov)}</div><div class="v">${value}</div><div class="s">${sub}</div></div>`;
}

// ---------------------------------------------------------------------------------------------
// charts

export const CHART_IDS = [
  'tokens_per_arm',
  'per_tool_distribution',
  'savings_vs_recall',
  'recall_curves',
  'break_even',
] as const;
export const LIVE_CHART_IDS = ['live_components', 'live_full_vs_compact', 'live_retrieval', 'live_latency'] as const;

type Row = Record<string, string | number | null>;

interface ChartData {
  rows: Row[];
  /** appended to the spec subtitle (e.g. which tokenizer) */
  note?: string;
  /** shown instead of the chart when rows is empty */
  empty: string;
}

function primaryTokenizer(r: Report): string {
  return r.meta.tokenizers[0].name;
}

function armOrder(r: Report): Map<string, number> {
  const m = new Map<string, number>();
  for (const a of r.arms) if (!m.has(a.arm)) m.set(a.arm, m.size);
  return m;
}

const RECALL_KS = [1, 3, 5, 10] as const;

function chartData(id: string, r: Report): ChartData {
  const tok = primaryTokenizer(r);
  const order = armOrder(r);
  const scored = r.retrieval.filter(isScored);
  const multiCorpus = new Set(scored.map((s) => s.corpus_id)).size > 1;
  const series = (corpus: string, arm: string) => (multiCorpus ? `${corpus} · ${arm}` : arm);
  const liveArms = r.arms.filter((a) => !a.skipped);
  switch (id) {
    case 'tokens_per_arm':
      return {
        rows: liveArms.flatMap((a) =>
          Object.entries(a.by_tokenizer).map(([t, s]) => ({ corpus: a.corpus_id, arm: a.arm, tokenizer: t, total_tokens: s.total_tokens.value, order: order.get(a.arm)! })),
        ),
        empty: 'no arm produced token counts (every arm skipped or no corpus)',
      };
    case 'per_tool_distribution':
      return {
        rows: liveArms.flatMap((a) =>
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
    case 'savings_vs_recall': {
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
          s = scored.find((x) => x.corpus_id === arm.corpus_id && x.arm === 'baseline_json');
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
    }
    case 'recall_curves':
      return {
        rows: scored.flatMap((s) => RECALL_KS.map((k) => ({ series: series(s.corpus_id, s.arm), k, recall: s.metrics[`recall_at_${k}`].value }))),
        empty: 'no corpus with a golden set was scored',
      };
    case 'break_even':
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
    case 'live_components': {
      const comps = ['input_schemas', 'descriptions', 'usage_instructions', 'metadata', 'other'] as const;
      return {
        rows: (r.live?.responses ?? [])
          .filter((x) => x.ok && x.tokenizer === tok && x.components)
          .flatMap((x) => comps.map((c, i) => ({ detail: x.detail, query_id: x.query_id, component: c, component_order: i, tokens: x.components![c] }))),
        note: tok,
        empty: 'no successful discovery responses',
      };
    }
    case 'live_full_vs_compact': {
      const stats = ['p50', 'p95', 'p99', 'max', 'mean'] as const;
      return {
        rows: (r.live?.response_summary ?? [])
          .filter((s) => s.n > 0)
          .flatMap((s) => stats.map((st, i) => ({ tokenizer: s.tokenizer, detail: s.detail, stat: st, order: i, tokens: s[st] }))),
        empty: 'no response summaries',
      };
    }
    case 'live_retrieval': {
      const metrics = ['recall_at_1', 'recall_at_3', 'recall_at_5', 'recall_at_10', 'mrr', 'ndcg_at_10', 'map'] as const;
      const label = (m: string) => m.replace('recall_at_', 'R@').replace('ndcg_at_10', 'nDCG@10').replace('mrr', 'MRR').replace('map', 'MAP');
      const sources: { source: string; m: RetrievalMetrics }[] = [];
      const live = r.live;
      if (live) {
        const off = scored.find((s) => s.arm === 'baseline_json' && (live.corpus_id === undefined || s.corpus_id === live.corpus_id));
        if (off) sources.push({ source: `offline BM25 (${off.arm})`, m: off.metrics });
        for (const lr of live.retrieval) sources.push({ source: `proxy (${lr.detail})`, m: lr.summary });
      }
      const hasProxy = sources.some((s) => s.source.startsWith('proxy'));
      return {
        rows: hasProxy
          ? sources.flatMap((s) => metrics.map((m, i) => ({ metric: label(m), order: i, source: s.source, value: s.m[m].value, lo: s.m[m].ci95?.[0] ?? s.m[m].value, hi: s.m[m].ci95?.[1] ?? s.m[m].value })))
          : [],
        empty: 'the proxy ranking was not scored (no golden set for the live corpus)',
      };
    }
    case 'live_latency': {
      const stats = ['p50_ms', 'p95_ms', 'p99_ms', 'max_ms'] as const;
      return {
        // log scale: clamp to 1 µs so a 0 ms reading still draws
        rows: (r.live?.latency ?? []).filter((l) => l.n > 0).flatMap((l) => stats.map((st, i) => ({ detail: l.detail, stat: st.replace('_ms', ''), order: i, ms: Math.max(0.001, l[st]) }))),
        empty: 'no latency samples',
      };
    }
  }
  throw new Error(`unknown chart id ${id}`);
}

/**
 * Break-even curves of the live section: its own `curves` when the live stage wrote them,
 * else drawn from the live break-even rows (flat full menu vs menu + calls x mean response).
 * Labelled "live · <corpus>" so they sit in their own chart row.
 */
function liveCurves(r: Report): BreakEvenCurvePoint[] {
  const l = r.live;
  if (!l) return [];
  const label = (c: string) => `live · ${c}`;
  if (l.economics.curves?.length) return l.economics.curves.map((c) => ({ ...c, corpus_id: label(c.corpus_id) }));
  const out: BreakEvenCurvePoint[] = [];
  for (const b of l.economics.break_even) {
    const last = Math.max(20, Math.ceil(2 * (b.break_even_calls ?? 0)));
    const step = Math.max(1, Math.ceil(last / 20));
    for (let calls = 0; calls <= last; calls += step) {
      out.push({
        corpus_id: label(b.corpus_id), arm: b.arm, tokenizer: b.tokenizer, calls,
        full_menu_tokens: b.full_menu_tokens, discovery_tokens: b.discovery_menu_tokens + calls * b.mean_response_tokens,
      });
    }
  }
  return out;
}

const specCache = new Map<string, TopLevelSpec>();
/** Load a chart's Vega-Lite spec (no data) from reports-template/charts/<id>.vl.json. */
export function loadChartSpec(id: string): TopLevelSpec {
  let s = specCache.get(id);
  if (!s) {
    s = JSON.parse(readFileSync(`${TEMPLATE_DIR}charts/${id}.vl.json`, 'utf8')) as TopLevelSpec;
    specCache.set(id, s);
  }
  return structuredClone(s);
}

/** Chart ids present in the template folder (used by tests to see every spec is wired). */
export function templateChartIds(): string[] {
  return readdirSync(`${TEMPLATE_DIR}charts`).filter((f) => f.endsWith('.vl.json')).map((f) => f.slice(0, -'.vl.json'.length)).sort();
}

const CHART_CONFIG: Config = {
  background: '#ffffff',
  padding: 6,
  font: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
  title: { anchor: 'start' as const, fontSize: 13, subtitleFontSize: 10, subtitleColor: '#5b6270' },
  axis: { labelFontSize: 10, titleFontSize: 11 },
  legend: { labelFontSize: 10, labelLimit: 240 },
  view: { stroke: '#d9dde3' },
};

/** Vega-Lite compile warnings known to be harmless for these specs (layers inside facets). */
const BENIGN_WARNINGS = ['Detected faceted independent scales that union domain'];
/** Non-benign compile warnings of the last render, per chart id (tests assert it stays empty). */
export const chartWarnings = new Map<string, string[]>();

/** Data -> Vega-Lite -> Vega -> static SVG string. */
export async function renderChartSvg(id: string, rows: Row[], note?: string): Promise<string> {
  const spec = loadChartSpec(id) as TopLevelSpec & { data?: unknown; title?: { text: string; subtitle?: string }; config?: unknown };
  spec.data = { values: rows };
  if (note && spec.title && typeof spec.title === 'object') spec.title.subtitle = `${spec.title.subtitle ?? ''}${spec.title.subtitle ? ' · ' : ''}${note}`;
  spec.config = CHART_CONFIG;
  const warnings: string[] = [];
  const logger = {
    level(): number { return vega.Warn; },
    warn(...args: unknown[]) {
      warnings.push(args.map(String).join(' '));
      return logger;
    },
    info() { return logger; },
    debug() { return logger; },
    error(...args: unknown[]) { throw new Error(`chart ${id}: ${args.map(String).join(' ')}`); },
  };
  const vg = compile(spec, { logger: logger as never }).spec;
  chartWarnings.set(id, warnings);
  const view = new vega.View(vega.parse(vg), { renderer: 'none', logger: logger as never, logLevel: vega.Warn });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
    const kept = warnings.filter((w) => !BENIGN_WARNINGS.some((b) => w.includes(b)));
    warnings.length = 0;
    warnings.push(...kept);
  }
}

async function chartFigure(id: string, r: Report): Promise<string> {
  const d = chartData(id, r);
  const title = (loadChartSpec(id) as { title?: { text?: string } }).title?.text ?? id;
  if (d.rows.length === 0) {
    return `<figure class="chart nodata" data-chart="${esc(id)}"><figcaption>${esc(title)}</figcaption><p class="nodata-note">No data: ${esc(d.empty)}.</p></figure>`;
  }
  const svg = await renderChartSvg(id, d.rows, d.note);
  return `<figure class="chart" data-chart="${esc(id)}" aria-label="${esc(title)}">${svg}</figure>`;
}

// ---------------------------------------------------------------------------------------------
// sections

function headerHtml(r: Report): string {
  const m = r.meta;
  const corpora = r.corpora.map((c) => `${c.id} (${c.tool_count} tools)`).join(', ');
  return `<header><h1>mcpgauge discovery report</h1>
<div class="meta">${esc(m.tool.name)} ${esc(m.tool.version)} · report v${r.report_version} · generated ${esc(m.generated_at)} · node ${esc(m.node_version)} · commit <code>${esc(m.git_commit ?? 'unknown')}</code></div>
<div class="meta">command: <code>${esc(m.command_line.join(' '))}</code></div>
<div class="meta">corpora: ${esc(corpora || 'none')} · tokenizers: ${esc(m.tokenizers.map((t) => t.name).join(', '))}</div>
<details class="meta"><summary>run options</summary><pre class="mono">${esc(JSON.stringify(m.options, null, 2))}</pre></details>
<p class="legend">Provenance: ${badge('measured')} counted in this run ${badge('computed')} formula over measured numbers ${badge('estimated')} model with assumptions</p>
</header>`;
}

function bannerHtml(r: Report): string {
  // per-tokenizer caveats only when they add something to the banner text
  const items = r.meta.tokenizers.map((t) => `<li><b>${esc(t.name)}</b>${t.caveat === r.meta.caveat ? '' : `: ${esc(t.caveat)}`}</li>`).join('');
  let out = `<div class="banner" role="note" id="tokenizer-caveat"><b>Tokenizer caveat.</b> ${esc(r.meta.caveat)}<ul>${items}</ul></div>`;
  if (r.live && !r.live.authoritative_headline) {
    out += `<div class="banner bad" role="alert"><b>No headline savings for the live proxy.</b> ${esc(r.live.headline_reason ?? '')}</div>`;
  }
  if (r.live?.lap.warning) out += `<div class="banner bad" role="alert"><b>LAP divergence.</b> ${esc(r.live.lap.warning)}</div>`;
  return out;
}

function headlinesHtml(r: Report): string {
  const tok = primaryTokenizer(r);
  const tiles: string[] = [];
  const main = r.corpora[0];
  if (main) {
    const arms = r.arms.filter((a) => a.corpus_id === main.id && !a.skipped && a.by_tokenizer[tok]);
    const base = arms.find((a) => a.arm === 'baseline_json');
    if (base) {
      const f = base.by_tokenizer[tok].total_tokens;
      tiles.push(tile('baseline_json listing', `${fmtInt(f.value)}`, `tokens · ${esc(main.id)} · ${esc(tok)}`, f.provenance));
    }
    const best = arms.filter((a) => a.arm !== 'baseline_json').sort((a, b) => b.by_tokenizer[tok].savings_vs_baseline_pct.value - a.by_tokenizer[tok].savings_vs_baseline_pct.value)[0];
    if (best) {
      const f = best.by_tokenizer[tok].savings_vs_baseline_pct;
      tiles.push(tile('largest savings vs baseline', `${fmtNum(f.value, 1)}%`, `${esc(best.arm)}${best.lower_bound ? ' (lower bound)' : ''} · ${esc(tok)}`, f.provenance));
    }
    const ret = r.retrieval.find((x): x is RetrievalScored => isScored(x) && x.corpus_id === main.id && x.arm === 'baseline_json');
    if (ret) {
      const f = ret.metrics.recall_at_5;
      const ci = f.ci95 ? ` · 95% CI [${fmtMetric(f.ci95[0])}, ${fmtMetric(f.ci95[1])}]` : '';
      tiles.push(tile('Recall@5 (baseline_json, BM25)', fmtMetric(f.value), `n=${f.n ?? ret.query_count}${ci}`, f.provenance));
    }
  }
  const live = r.live;
  if (live) {
    const menu = live.menus.find((m) => m.tokenizer === tok) ?? live.menus[0];
    if (menu) {
      tiles.push(tile('proxy menu (live tools/list)', fmtInt(menu.proxy_menu_tokens.value), `tokens · ${menu.proxy_tool_count} tools · ${esc(menu.tokenizer)}`, menu.proxy_menu_tokens.provenance));
      tiles.push(tile('naive full menu (upstreams)', fmtInt(menu.full_menu_tokens.value), `tokens · ${menu.upstream_tool_count} tools · ${esc(menu.tokenizer)}`, menu.full_menu_tokens.provenance));
      if (live.authoritative_headline && menu.full_menu_tokens.value > 0) {
        const pct = (100 * (menu.full_menu_tokens.value - menu.proxy_menu_tokens.value)) / menu.full_menu_tokens.value;
        tiles.push(tile('menu savings through the proxy', `${fmtNum(pct, 1)}%`, 'before any discovery call', 'computed'));
      }
    }
    const be = live.economics.break_even.find((b) => b.tokenizer === tok);
    if (be) {
      tiles.push(tile(`break-even (${be.arm})`, be.no_break_even ? '<span class="bad">none</span>' : fmtNum(be.break_even_calls ?? 0, 1), be.no_break_even ? esc(be.reason ?? '') : 'discovery calls per session', be.provenance));
    }
    const rs = live.response_summary.find((s) => s.tokenizer === tok && s.detail === 'full') ?? live.response_summary[0];
    if (rs) tiles.push(tile(`response p50 / p95 (${rs.detail})`, `${fmtInt(rs.p50)} / ${fmtInt(rs.p95)}`, `tokens per discovery call · n=${rs.n}`, 'measured'));
  }
  if (tiles.length === 0) return '';
  return `<section id="headlines"><h2>Headline numbers</h2><div class="tiles">${tiles.join('\n')}</div></section>`;
}

function corporaHtml(r: Report): string {
  const rows = r.corpora.map((c) => {
    const h = c.hygiene;
    return [
      { html: `<b>${esc(c.id)}</b>`, sort: c.id, nw: true },
      { html: `${esc(c.name)}${c.attribution ? `<div class="meta">${esc(c.attribution)}</div>` : ''}`, sort: c.name, wide: true },
      ident(c.version),
      int(c.tool_count),
      txt(c.license),
      { html: c.committed ? 'yes' : 'no (runtime fetch)', sort: c.committed ? 1 : 0 },
      txt(c.format),
      int(h.degenerate.count),
      num(h.schema_size.p50, 0),
      num(h.schema_size.p95, 0),
      num(h.schema_size.max, 0),
      int(h.schema_size.tools_without_schema),
      int(h.duplicate_schemas.distinct),
      int(h.duplicate_schemas.tools_sharing),
    ];
  });
  const t = table(
    ['Corpus', 'Name', 'Version', 'Tools', 'License', 'Committed', 'Format', 'Degenerate descr.', 'Schema bytes p50', 'p95', 'max', 'No schema', 'Distinct schemas', 'Tools sharing a schema'],
    rows,
    { id: 'corpora-table' },
  );
  const details = r.corpora
    .map((c) => {
      const ex = c.hygiene.degenerate.examples;
      const groups = c.hygiene.duplicate_schemas.groups;
      const rules = c.hygiene.degenerate.rules.map((x) => `<li>${esc(x)}</li>`).join('');
      return `<details><summary>${esc(c.id)}: ${c.hygiene.degenerate.count} degenerate descriptions, ${groups.length} duplicate-schema groups · source <code>${esc(c.source)}</code></summary>
<p class="meta">Rules:</p><ul>${rules}</ul>
${ex.length ? table(['Tool', 'Description', 'Rule'], ex.map((e) => [ident(e.tool_id), { html: `<code>${esc(JSON.stringify(e.description))}</code>`, sort: e.description }, txt(e.rule ?? '')])) : '<p class="muted">no examples</p>'}
${groups.length ? table(['Schema sha256', 'Bytes', 'Tools', 'Tool ids'], groups.map((g) => [{ html: `<code>${esc(g.schema_sha256.slice(0, 12))}</code>`, sort: g.schema_sha256 }, int(g.bytes), int(g.tool_count), txt(g.tool_ids.join(', '))])) : ''}
</details>`;
    })
    .join('\n');
  return section('corpora', 'Corpora and hygiene', r.provenance.corpora, t + details);
}

function armsHtml(r: Report): string {
  const toks = r.meta.tokenizers.map((t) => t.name);
  const headers = ['Corpus', 'Arm', 'Flags'];
  for (const t of toks) headers.push(`Total (${t})`, `Mean/tool (${t})`, `p95 (${t})`, `Max (${t})`, `Savings (${t})`);
  headers.push('Skipped tools', 'Retry rate');
  const rows = r.arms.map((a) => {
    const flags: string[] = [];
    if (a.skipped) flags.push(`<span class="bad">SKIPPED: ${esc((a.skip_reason ?? '').replace(/^skipped:\s*/i, ''))}</span>`);
    if (a.index_altering) flags.push('index-altering');
    if (a.lower_bound) flags.push('lower-bound estimate');
    const cells: Cell[] = [ident(a.corpus_id), { html: `<b>${esc(a.arm)}</b>`, sort: a.arm }, { html: flags.join('<br>') || '<span class="muted">rendering only</span>', sort: flags.join(' ') }];
    for (const t of toks) {
      const s = a.by_tokenizer[t];
      cells.push(figCell(s?.total_tokens, { withBadge: false }), num(s?.mean, 1), num(s?.p95, 0), num(s?.max, 0), figCell(s?.savings_vs_baseline_pct, { digits: 1, pct: true }));
    }
    cells.push(int(a.skipped ? null : a.skipped_tools), num(a.retry_rate, 2));
    return cells;
  });
  const agree = r.ranking_agreement
    .map((x) => {
      const orders = Object.entries(x.by_tokenizer).map(([t, ids]) => `<li><b>${esc(t)}</b>: ${esc(ids.join(' < '))}</li>`).join('');
      return `<li>${esc(x.corpus_id)}: ${x.same ? 'same arm ranking under every tokenizer' : '<span class="bad">arm ranking differs between tokenizers</span>'}<ul>${orders}</ul></li>`;
    })
    .join('');
  const tok = toks[0];
  const heavy = r.arms
    .filter((a) => !a.skipped)
    .map((a) => {
      const s = a.by_tokenizer[tok];
      const hv = s ? table(['Tool', `Tokens (${tok})`], s.heaviest.map((h) => [ident(h.tool_id), int(h.tokens)])) : '';
      const sk = a.skip_examples.length ? table(['Skipped tool', 'Error'], a.skip_examples.map((e) => [ident(e.tool_id), txt(e.error)])) : '';
      return `<details><summary>${esc(a.corpus_id)} · ${esc(a.arm)}: heaviest tools${a.skip_examples.length ? ` and ${a.skipped_tools} skipped tools` : ''}</summary>${hv}${sk}</details>`;
    })
    .join('\n');
  return section(
    'arms',
    'Encoding arms',
    r.provenance.arms,
    `<p class="meta">Savings are relative to baseline_json on the same corpus and tokenizer ${badge(r.provenance.savings_vs_baseline_pct ?? 'computed')}; negative savings are red.</p>
${table(headers, rows, { id: 'arms-table' })}
<h3>Ranking agreement across tokenizers</h3><ul>${agree || '<li class="muted">no rankings</li>'}</ul>
<h3>Heaviest tools and skip examples</h3>${heavy}`,
  );
}

const METRIC_COLS: [keyof RetrievalMetrics & string, string][] = [
  ['recall_at_1', 'R@1'],
  ['recall_at_3', 'R@3'],
  ['recall_at_5', 'R@5'],
  ['recall_at_10', 'R@10'],
  ['mrr', 'MRR'],
  ['ndcg_at_10', 'nDCG@10'],
  ['map', 'MAP'],
  ['comprehensiveness_at_5', 'Comp@5'],
];

function metricCells(m: RetrievalMetrics): Cell[] {
  return METRIC_COLS.map(([k]) => figCell(m[k], { metric: true }));
}

function isWeak(q: QueryRow): boolean {
  return q.error !== undefined || q.first_relevant_rank === null || q.first_relevant_rank > 5;
}

function perQueryTable(rows: { corpus: string; arm: string; q: QueryRow }[], id: string): string {
  const headers = ['Corpus', 'Arm', 'Query id', 'Query', 'First rank', 'R@5', 'RR', 'nDCG@10', 'AP', 'Top 3', 'Error'];
  const cells = rows.map(({ corpus, arm, q }) => [
    ident(corpus),
    ident(arm),
    ident(q.query_id),
    { ...txt(q.query), wide: true },
    int(q.first_relevant_rank),
    num(q.recall_at_5, 2),
    num(q.rr, 3),
    num(q.ndcg_at_10, 3),
    num(q.ap, 3),
    { html: `<span class="mono">${esc(q.top.slice(0, 3).join(', '))}</span>`, sort: q.top.slice(0, 3).join(',') },
    q.error ? { html: `<span class="bad">${esc(q.error)}</span>`, sort: q.error } : txt(''),
  ]);
  return `<div class="filter"><label>Filter rows: <input type="search" data-filter="${esc(id)}" placeholder="arm, query id or text"></label> <span class="meta">weak queries (no relevant tool in the top 5, or an error) are shaded</span></div>
${table(headers, cells, { id, rowClass: (i) => (rows[i].q.error ? 'err' : isWeak(rows[i].q) ? 'weak' : '') })}`;
}

/** Most per-query rows the page shows (large external sets stay usable; tables/ has them all). */
export const MAX_QUERY_ROWS = 2000;

/** Keep every weak row first, then the rest, up to the cap; original order preserved. */
function capRows<T extends { q: QueryRow }>(rows: T[]): T[] {
  if (rows.length <= MAX_QUERY_ROWS) return rows;
  const keep = new Set<number>();
  rows.forEach((x, i) => { if (keep.size < MAX_QUERY_ROWS && isWeak(x.q)) keep.add(i); });
  rows.forEach((_, i) => { if (keep.size < MAX_QUERY_ROWS) keep.add(i); });
  return rows.filter((_, i) => keep.has(i));
}

function retrievalHtml(r: Report): string {
  const headers = ['Corpus', 'Arm', 'Retriever', 'Golden', 'Queries', 'Errors', ...METRIC_COLS.map(([, l]) => l)];
  const rows = r.retrieval.map((x): Cell[] => {
    if (!isScored(x)) {
      return [ident(x.corpus_id), ident(x.arm), { html: `<span class="muted">not scorable: ${esc(x.not_scorable)}</span>`, sort: '', colspan: headers.length - 2 }];
    }
    return [
      ident(x.corpus_id),
      { html: `<b>${esc(x.arm)}</b>`, sort: x.arm },
      { html: `${esc(x.retriever.id)}<div class="meta" title="${esc(JSON.stringify(x.retriever.params))}">${esc(x.retriever.analyzer)}</div>`, sort: x.retriever.id },
      ident(x.golden_version),
      int(x.query_count),
      { html: x.errors ? `<span class="bad">${x.errors}</span>` : '0', sort: x.errors, num: true },
      ...metricCells(x.metrics),
    ];
  });
  const all = r.retrieval.filter(isScored).flatMap((x) => x.per_query.map((q) => ({ corpus: x.corpus_id, arm: x.arm, q })));
  const weak = all.filter((x) => isWeak(x.q)).length;
  const pq = capRows(all);
  const shown = pq.length < all.length
    ? ` — showing ${pq.length} of ${all.length} rows (every weak row kept); all rows are in tables/per_query.parquet`
    : '';
  return section(
    'retrieval',
    'Retrieval quality',
    r.provenance.retrieval,
    `<p class="meta">Means over golden queries with 95% bootstrap confidence intervals in brackets. Index-altering arms are re-indexed and scored on their own text; rendering-only arms score the same as baseline.</p>
${table(headers, rows, { id: 'retrieval-table' })}
<h3>Per-query results (${all.length} rows, ${weak} weak)</h3>${shown ? `<p class="meta">${esc(shown.slice(3))}</p>` : ''}
${perQueryTable(pq, 'per-query-table')}`,
  );
}

function economicsHtml(r: Report, e: Pick<Report['economics'], 'break_even' | 'session_estimates'>, id: string, title: string, provBe?: Provenance, provSe?: Provenance): string {
  const be = table(
    ['Corpus', 'Arm', 'Tokenizer', 'Full menu', 'Discovery menu', 'Mean response', 'Break-even calls'],
    e.break_even.map((b) => [
      ident(b.corpus_id),
      ident(b.arm),
      ident(b.tokenizer),
      num(b.full_menu_tokens, 0),
      num(b.discovery_menu_tokens, 0),
      num(b.mean_response_tokens, 1),
      b.no_break_even
        ? { html: `<span class="bad">no break-even</span><div class="meta">${esc(b.reason ?? '')}</div>`, sort: Number.POSITIVE_INFINITY, num: true }
        : { html: `${fmtNum(b.break_even_calls ?? 0, 2)}${badge(b.provenance)}`, sort: b.break_even_calls, num: true },
    ]),
    { id: `${id}-break-even` },
  );
  const se = table(
    ['Corpus', 'Arm', 'Tokenizer', 'Calls/session', 'Retry rate', 'Menu', 'Mean response', 'Estimated tokens'],
    e.session_estimates.map((s) => [
      ident(s.corpus_id),
      ident(s.arm),
      ident(s.tokenizer),
      int(s.calls_per_session),
      num(s.retry_rate, 2),
      num(s.menu_tokens, 0),
      num(s.mean_response_tokens, 1),
      { html: `${fmtInt(s.estimated_tokens)}${badge(s.provenance)}`, sort: s.estimated_tokens, num: true },
    ]),
    { id: `${id}-sessions` },
  );
  void r;
  return `<h3>${esc(title)}: break-even${badge(provBe)}</h3>
<p class="meta">break-even calls = (full-menu tokens − discovery-menu tokens) / mean discovery response tokens; no break-even when the numerator is ≤ 0.</p>
${be}
<h3>${esc(title)}: session estimates${badge(provSe)}</h3>
<p class="meta">estimated tokens = menu + calls × mean response × (1 + retry rate), rounded half up. Always an estimate.</p>
${se}`;
}

function liveHtml(r: Report): string {
  const l = r.live;
  if (!l) return '';
  const p = r.provenance;
  const target = `<dl class="kv">
<dt>Target</dt><dd>${esc(l.target.kind)}: ${esc(l.target.description)}</dd>
<dt>Discovery tool</dt><dd><code>${esc(l.target.discovery_tool)}</code> (query: <code>${esc(l.target.arg_names.query)}</code>, limit: <code>${esc(l.target.arg_names.limit ?? '—')}</code>, detail: <code>${esc(l.target.arg_names.detail ?? '—')}</code>)</dd>
<dt>Proxy</dt><dd>${esc(l.proxy.server_name ?? 'unknown')} ${esc(l.proxy.server_version ?? '')} · protocol ${esc(l.proxy.protocol_version ?? 'unknown')}</dd>
<dt>Headline</dt><dd>${l.authoritative_headline ? 'authoritative (every schema present on both sides)' : `<span class="bad">not authoritative: ${esc(l.headline_reason ?? '')}</span>`}</dd>
</dl>`;
  const menus = table(
    ['Tokenizer', 'Proxy menu', 'Proxy tools', 'Full menu (upstreams)', 'Upstream tools'],
    l.menus.map((m) => [ident(m.tokenizer), figCell(m.proxy_menu_tokens, { withBadge: true }), int(m.proxy_tool_count), figCell(m.full_menu_tokens, { withBadge: true }), int(m.upstream_tool_count)]),
    { id: 'live-menus' },
  );
  const summary = table(
    ['Detail', 'Tokenizer', 'n', 'p50', 'p95', 'p99', 'Max', 'Mean'],
    l.response_summary.map((s) => [ident(s.detail), ident(s.tokenizer), int(s.n), num(s.p50, 0), num(s.p95, 0), num(s.p99, 0), num(s.max, 0), num(s.mean, 1)]),
    { id: 'live-response-summary' },
  );
  const latency = table(
    ['Detail', 'n', 'Warm-up', 'Runs', 'p50 ms', 'p95 ms', 'p99 ms', 'Max ms', 'Mean ms'],
    l.latency.map((x) => [ident(x.detail), int(x.n), int(x.warmup), int(x.runs), num(x.p50_ms, 2), num(x.p95_ms, 2), num(x.p99_ms, 2), num(x.max_ms, 2), num(x.mean_ms, 2)]),
    { id: 'live-latency' },
  );
  const retr = table(
    ['Detail', 'Golden', 'Queries', 'Errors', ...METRIC_COLS.map(([, lb]) => lb)],
    l.retrieval.map((x) => [ident(x.detail), txt(x.golden_version ?? ''), int(x.query_count), int(x.errors), ...metricCells(x.summary)]),
    { id: 'live-retrieval' },
  );
  const comps = ['input_schemas', 'descriptions', 'usage_instructions', 'metadata', 'other'] as const;
  // failed calls first when the table must be capped; all rows are in tables/live_responses.parquet
  const respRows = l.responses.length <= MAX_QUERY_ROWS
    ? l.responses
    : [...l.responses.filter((x) => !x.ok), ...l.responses.filter((x) => x.ok)].slice(0, MAX_QUERY_ROWS);
  const responses = table(
    ['Query id', 'Detail', 'Tokenizer', 'OK', 'Total', 'Results', 'Latency ms', ...comps],
    respRows.map((x) => [
      ident(x.query_id),
      ident(x.detail),
      ident(x.tokenizer),
      x.ok ? { html: 'ok', sort: 1 } : { html: `<span class="bad">error</span><div class="meta">${esc(x.error ?? '')}</div>`, sort: 0 },
      int(x.total_tokens),
      int(x.result_count),
      num(x.latency_ms, 2),
      ...comps.map((c) => int(x.components?.[c])),
    ]),
    { id: 'live-responses', rowClass: (i) => (respRows[i].ok ? '' : 'err') },
  );
  const lap = l.lap.executed
    ? `<dl class="kv"><dt>Version</dt><dd>${esc(l.lap.version ?? 'unknown')}</dd><dt>Grade</dt><dd>${esc(l.lap.grade ?? '—')}</dd>
<dt>LAP menu tokens</dt><dd>${l.lap.menu_tokens !== undefined ? fmtInt(l.lap.menu_tokens) : '—'}</dd>
<dt>In-house menu tokens</dt><dd>${l.lap.in_house_menu_tokens !== undefined ? fmtInt(l.lap.in_house_menu_tokens) : '—'}</dd>
<dt>Divergence</dt><dd>${l.lap.divergence_pct !== undefined ? `${fmtNum(l.lap.divergence_pct, 1)}%` : '—'}${l.lap.warning ? ` <span class="bad">${esc(l.lap.warning)}</span>` : ''}</dd>
<dt>Artifact</dt><dd><code>${esc(l.lap.artifact_path ?? '—')}</code></dd></dl>`
    : `<p class="muted">LAP not executed: ${esc((l.lap.skip_reason ?? '').replace(/^skipped:\s*/i, ''))}</p>`;
  const errors = l.errors.length
    ? `<ul>${l.errors.map((e) => `<li><code>${esc(e.where)}</code>: ${esc(e.message)}</li>`).join('')}</ul>`
    : '<p class="muted">no errors</p>';
  const perQueryAll = l.retrieval.flatMap((x) => x.per_query.map((q) => ({ corpus: l.corpus_id ?? 'live', arm: `proxy (${x.detail})`, q })));
  const perQuery = capRows(perQueryAll);
  return section(
    'live',
    'Live proxy',
    p['live.menus'],
    `${target}
<h3>Menus over the wire${badge(p['live.menus'])}</h3>${menus}
<h3>Discovery response tokens${badge(p['live.responses'])}</h3>${summary}
<h3>Latency${badge(p['live.latency'])}</h3><p class="meta">client-measured per call, after warm-up; nearest-rank percentiles.</p>${latency}
<h3>Proxy retrieval quality${badge(p['live.retrieval'])}</h3>${retr}
<details><summary>Per-query proxy rankings (${perQueryAll.length} rows${perQuery.length < perQueryAll.length ? `, ${perQuery.length} shown, every weak row kept; all in tables/per_query.parquet` : ''})</summary>${perQueryTable(perQuery, 'live-per-query')}</details>
<details><summary>Every discovery response (${l.responses.length} rows${respRows.length < l.responses.length ? `, ${respRows.length} shown, failures first; all in tables/live_responses.parquet` : ''})</summary><p class="meta">components add up exactly to the total (span attribution).</p>${responses}</details>
${economicsHtml(r, l.economics, 'live-economics', 'Live economics', p['live.economics.break_even'], p['live.economics.session_estimates'])}
<h3>LAP${badge(p['live.lap'])}</h3>${lap}
<h3>Errors</h3>${errors}`,
  );
}

// ---------------------------------------------------------------------------------------------
// page script (sorting + filter). Kept tiny; allowed by CSP hash.

const PAGE_SCRIPT = `(function () {
  function key(td) {
    var v = td.getAttribute('data-v');
    if (v === null) v = td.textContent || '';
    if (v === '') return { e: 1, n: 0, s: '' };
    var n = Number(v);
    return isNaN(n) ? { e: 0, n: 0, s: v.toLowerCase() } : { e: 0, n: n, s: null };
  }
  function cmp(a, b) {
    if (a.e !== b.e) return a.e - b.e;
    if (a.s === null && b.s === null) return a.n - b.n;
    if (a.s === null) return -1;
    if (b.s === null) return 1;
    return a.s < b.s ? -1 : a.s > b.s ? 1 : 0;
  }
  document.querySelectorAll('table.sortable-table').forEach(function (table) {
    var ths = table.querySelectorAll('thead th');
    ths.forEach(function (th, col) {
      th.setAttribute('tabindex', '0');
      function sort() {
        var asc = th.getAttribute('aria-sort') !== 'ascending';
        ths.forEach(function (o) { o.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows).filter(function (r) { return r.cells.length > col; });
        var keyed = rows.map(function (r, i) { return { r: r, k: key(r.cells[col]), i: i }; });
        keyed.sort(function (a, b) {
          if (a.k.e !== b.k.e) return a.k.e - b.k.e;
          var c = cmp(a.k, b.k);
          return (asc ? c : -c) || a.i - b.i;
        });
        keyed.forEach(function (x) { body.appendChild(x.r); });
      }
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (ev) { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); sort(); } });
    });
  });
  document.querySelectorAll('input[data-filter]').forEach(function (input) {
    var table = document.getElementById(input.getAttribute('data-filter'));
    if (!table) return;
    input.addEventListener('input', function () {
      var q = input.value.toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        r.style.display = !q || (r.textContent || '').toLowerCase().indexOf(q) >= 0 ? '' : 'none';
      });
    });
  });
})();`;

function cspFor(script: string): string {
  const hash = createHash('sha256').update(script, 'utf8').digest('base64');
  return [
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "font-src 'none'",
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Fill {{name}} placeholders; every name must be provided and every placeholder used. */
function fill(template: string, parts: Record<string, string>): string {
  const used = new Set<string>();
  const out = template.replace(/\{\{([a-z_]+)\}\}/g, (_, name: string) => {
    if (!(name in parts)) throw new Error(`dashboard template: no value for {{${name}}}`);
    used.add(name);
    return parts[name];
  });
  for (const k of Object.keys(parts)) if (!used.has(k)) throw new Error(`dashboard template: placeholder {{${k}}} missing`);
  return out;
}

/** Chart ids the dashboard renders for this report (live charts only when `live` exists). */
export function chartIdsFor(r: Report): string[] {
  return [...CHART_IDS, ...(r.live ? LIVE_CHART_IDS : [])];
}

/** Render a valid report into the self-contained dashboard HTML. */
export async function renderDashboard(report: Report): Promise<string> {
  const template = readFileSync(`${TEMPLATE_DIR}dashboard.html`, 'utf8');
  const charts: string[] = [];
  for (const id of chartIdsFor(report)) charts.push(await chartFigure(id, report));
  const econ = section(
    'economics',
    'Economics (offline)',
    report.provenance['economics.break_even'],
    economicsHtml(report, report.economics, 'economics', 'Offline', report.provenance['economics.break_even'], report.provenance['economics.session_estimates']),
  );
  return fill(template, {
    csp: cspFor(PAGE_SCRIPT),
    generator: `${report.meta.tool.name} ${report.meta.tool.version}`,
    title: esc(`mcpgauge report · ${report.corpora.map((c) => c.id).join(', ') || 'no corpus'}`),
    header: headerHtml(report),
    banner: bannerHtml(report),
    headlines: headlinesHtml(report),
    charts: charts.join('\n'),
    corpora: corporaHtml(report),
    arms: armsHtml(report),
    retrieval: retrievalHtml(report),
    economics: econ,
    live: liveHtml(report),
    notes: report.meta.notes?.length
      ? section('notes', 'Methodology notes', undefined, `<ul>${report.meta.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`)
      : '',
    footer: esc(`Generated by ${report.meta.tool.name} ${report.meta.tool.version} at ${report.meta.generated_at}. Self-contained: no network loads.`),
    script: PAGE_SCRIPT,
  });
}

