/**
 * The one renderer: draws any section's details (tiles, typed tables, chart references, text
 * blocks) into HTML, and any list of sections (each with the document it reads) into the
 * self-contained page (reports-template/dashboard.html + page.js, CSP-hashed).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Figure, Provenance } from '../types.ts';
import { join } from 'node:path';
import { REPO_ROOT, TEMPLATE_DIR } from '../constants.ts';
import { CHART_DATA_CLASS, chartFigure } from './charts.ts';
import { PACKED_ROWS_TYPE, packRows } from './pack.ts';
import type { Block, CellValue, Column, RichCell, SectionDetails, SectionInput, TableDetails, Tile } from './details.ts';
import { esc, html, joinHtml, type SafeHtml, toHtml, trustedHtml, type HtmlValue } from './html.ts';

// ---------------------------------------------------------------------------------------------
// formatting

// en-US digits without Intl: the first Intl call of a process loads ICU's locale data (~50 ms
// measured in a corpus_v2-sized bench, issue 31), and these are the only Intl users. Same text as
// Intl.NumberFormat('en-US') for every finite value below 1e21 (test/report/format.test.ts holds
// it against Intl, -0 included); anything else falls through to Intl.
const intl = new Map<number, Intl.NumberFormat>();
function viaIntl(x: number, digits: number): string {
  let f = intl.get(digits);
  if (!f) intl.set(digits, (f = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return f.format(x);
}
/** |x| rounded half away from zero to `digits` decimals on its shortest round-trip digits (as Intl
 * rounds: 0.15 -> "0.2", though the double is below 0.15), as "int" and "frac" digit strings */
function roundDecimal(ax: number, digits: number): [string, string] {
  const [mant, expPart] = ax.toExponential().split('e');
  const all = mant.replace('.', '');
  const intLen = Number(expPart) + 1; // digits before the point
  const keep = intLen + digits;
  if (keep < 0) return ['0', '0'.repeat(digits)];
  let kept = (all + '0'.repeat(Math.max(0, keep - all.length))).slice(0, keep);
  if ((all[keep] ?? '0') >= '5') {
    const up = (BigInt(kept || '0') + 1n).toString();
    kept = up.padStart(keep, '0');
  }
  kept = kept.padStart(digits + 1, '0');
  return [kept.slice(0, kept.length - digits).replace(/^0+(?=\d)/, ''), kept.slice(kept.length - digits)];
}
function grouped(x: number, digits: number): string {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return viaIntl(x, digits);
  const [int, frac] = x === 0 ? ['0', '0'.repeat(digits)] : roundDecimal(Math.abs(x), digits);
  const withCommas = int.replace(/\B(?=(\d{3})+$)/g, ',');
  return (x < 0 || Object.is(x, -0) ? '-' : '') + withCommas + (digits > 0 ? `.${frac}` : '');
}
export function fmtInt(x: number): string {
  return grouped(Math.round(x), 0);
}
export function fmtNum(x: number, digits = 1): string {
  if (Number.isInteger(x) && Math.abs(x) >= 1000) return fmtInt(x);
  return grouped(x, digits);
}
export function fmtMetric(x: number): string {
  return x.toFixed(3);
}
/** Token change against the baseline as printed: savings 12.34 -> "-12.3%", growth -5 -> "+5.0%", never "-0.0%". */
export function tokenChange(savingsPct: number): string {
  const r = Math.round(savingsPct * 10) / 10;
  return r === 0 ? '0.0%' : `${r > 0 ? '-' : '+'}${Math.abs(r).toFixed(1)}%`;
}

const PROVENANCE_HELP: Record<Provenance, string> = {
  measured: 'measured: counted or observed directly in this run',
  computed: 'computed: derived by a formula from measured numbers',
  estimated: 'estimated: a model with assumptions (e.g. retry rate, calls per session)',
};

export function badge(p: Provenance | undefined): SafeHtml {
  if (!p) return html``;
  return html`<span class="badge ${p}" title="${PROVENANCE_HELP[p]}">${p}</span>`;
}

/** a rich cell (escaped by construction) */
export const rich = (fragment: SafeHtml, sort?: number | string | null, extra: Omit<RichCell, 'rich' | 'sort'> = {}): RichCell => ({
  rich: fragment,
  sort,
  ...extra,
});

// ---------------------------------------------------------------------------------------------
// tables

interface Cell {
  html: SafeHtml;
  sort?: number | string | null;
  num?: boolean;
  nw?: boolean;
  wide?: boolean;
  mono?: boolean;
  colspan?: number;
}

const DASH = html`<span class="muted">—</span>`;

function isRich(v: CellValue): v is RichCell {
  return typeof v === 'object' && v !== null && 'rich' in v;
}

function figureCell(f: Figure | undefined | null, c: Column): Cell {
  if (!f) return { html: DASH, sort: null, num: true };
  const fmt = (x: number) => (c.metric ? fmtMetric(x) : c.digits !== undefined ? fmtNum(x, c.digits) : fmtInt(x));
  const v = fmt(f.value);
  const ci = f.ci95
    ? html` <span class="ci">[${c.metric ? fmtMetric(f.ci95[0]) : fmtNum(f.ci95[0], 1)}, ${c.metric ? fmtMetric(f.ci95[1]) : fmtNum(f.ci95[1], 1)}]</span>`
    : '';
  const title = `${f.value} ${f.unit} (${f.provenance}${f.tokenizer ? `, ${f.tokenizer}` : ''}${f.n !== undefined ? `, n=${f.n}` : ''})`;
  const neg = c.pct && f.value < 0;
  const body = neg
    ? html`<span class="neg" title="${title}">${v}${c.pct ? '%' : ''}</span>`
    : html`<span title="${title}">${v}${c.pct ? '%' : ''}</span>`;
  return { html: html`${body}${ci}${c.badge ? badge(f.provenance) : ''}`, sort: f.value, num: true };
}

function cellOf(v: CellValue, c: Column): Cell {
  if (isRich(v)) return { html: v.rich, sort: v.sort, num: v.num, nw: v.nw, colspan: v.colspan, wide: c.wide };
  switch (c.type) {
    case 'text':
    case 'ident':
    case 'key': {
      const s = v === undefined || v === null ? '' : String(v);
      return { html: c.type === 'key' ? html`<b>${s}</b>` : toHtml(s), sort: s, nw: c.type !== 'text', wide: c.wide, mono: c.mono };
    }
    case 'int':
      return typeof v === 'number' ? { html: toHtml(fmtInt(v)), sort: v, num: true } : { html: DASH, sort: null, num: true };
    case 'num':
      return typeof v === 'number' ? { html: toHtml(fmtNum(v, c.digits ?? 1)), sort: v, num: true } : { html: DASH, sort: null, num: true };
    case 'figure':
      return figureCell(v as Figure | undefined, c);
  }
}

function cellClass(c: Cell): string {
  return [c.num ? 'num' : '', c.nw ? 'nw' : '', c.wide ? 'wide' : '', c.mono ? 'mono' : ''].filter(Boolean).join(' ');
}

function renderCell(c: Cell): SafeHtml {
  const sortAttr = c.sort === undefined ? '' : html` data-v="${c.sort === null ? '' : c.sort}"`;
  const span = c.colspan ? html` colspan="${c.colspan}"` : '';
  const cls = cellClass(c);
  return html`<td${cls ? html` class="${cls}"` : ''}${sortAttr}${span}>${c.html}</td>`;
}

/** A row's cells (a cell with a colspan ends the row). */
function rowCells(t: TableDetails, row: TableDetails['rows'][number]): Cell[] {
  const cells: Cell[] = [];
  for (const c of t.columns) {
    const cell = cellOf(row[c.key], c);
    cells.push(cell);
    if (cell.colspan) break;
  }
  return cells;
}

/**
 * Tables longer than this draw their first PAGE_ROWS rows with the page and the rest on demand
 * ("Show all N rows"); a table inside a collapsed `details` block draws every row when the block
 * opens. Rows drawn on demand travel as packed data (packRows) that the page script turns into
 * the same cells: what a reader scrolls past costs the first screen nothing.
 */
export const PAGE_ROWS = 20;

/**
 * One cell as data for the page script: the cell's HTML (escaped by construction, inserted as
 * is) with its sort key, class and colspan. A plain string = HTML that is also its sort key; an
 * array = [html, sort (null = empty; absent = no sort key), class (when not the column's), colspan].
 */
type CellData = string | [string] | [string, string | number | null, string?, number?];

function cellData(c: Cell, columnClass: string): CellData {
  const h = c.html.value;
  const cls = cellClass(c);
  if (cls === columnClass && !c.colspan) {
    if (typeof c.sort === 'string' && c.sort === h && !h.includes('&')) return h;
    if (c.sort === undefined) return [h];
    return [h, c.sort];
  }
  const out: [string, string | number | null, string?, number?] = [h, c.sort === undefined ? null : c.sort, cls];
  if (c.colspan) out.push(c.colspan);
  return out;
}

/** How a table is drawn: every row now, the first PAGE_ROWS then the rest on demand, or every row on demand. */
export type TableMode = 'eager' | 'paged' | 'collapsed';

function tableMode(t: TableDetails, inDetails: boolean): TableMode {
  if (!t.id || t.rows.length <= PAGE_ROWS) return 'eager';
  return inDetails ? 'collapsed' : 'paged';
}

export function renderTable(t: TableDetails, inDetails = false): SafeHtml {
  const mode = tableMode(t, inDetails);
  const th = t.columns.map((c) => html`<th class="sortable" scope="col">${c.label}</th>`);
  const now = mode === 'eager' ? t.rows.length : mode === 'paged' ? PAGE_ROWS : 0;
  const body = joinHtml(
    t.rows.slice(0, now).map((row, i) => {
      const cls = t.rowClasses?.[i] ?? '';
      return html`<tr${cls ? html` class="${cls}"` : ''}>${rowCells(t, row).map(renderCell)}</tr>`;
    }),
    '\n',
  );
  const empty = t.rows.length === 0 ? html`<tr><td colspan="${t.columns.length}" class="muted">no rows</td></tr>` : '';
  const later = t.rows.length - now;
  const pending = later > 0 ? html` data-rows="${t.id}-rows"` : '';
  const table = html`<div class="tablewrap"><table${t.id ? html` id="${t.id}"` : ''} class="sortable-table"${pending}>${t.caption ? html`<caption class="meta">${t.caption}</caption>` : ''}<thead><tr>${th}</tr></thead><tbody>${body}${empty}</tbody></table></div>`;
  let data: SafeHtml | string = '';
  if (later > 0) {
    const columnClass = t.columns.map((c) => cellClass(cellOf(undefined, c)));
    const rows = t.rows
      .slice(now)
      .map((row, i) => [t.rowClasses?.[now + i] ?? '', ...rowCells(t, row).map((c, j) => cellData(c, columnClass[j]))]);
    data = html`${mode === 'paged' ? html`<button type="button" class="more" data-more="${t.id}">Show all ${fmtInt(t.rows.length)} rows (${fmtInt(now)} shown)</button>` : ''}<script type="${PACKED_ROWS_TYPE}" id="${t.id}-rows">${packRows({ cls: columnClass, rows })}</script>`;
  }
  if (!t.filter || !t.id) return html`${table}${data}`;
  return html`<div class="filter"><label>Filter rows: <input type="search" data-filter="${t.id}" placeholder="${t.filter.placeholder}"></label>${t.filter.note ? html` <span class="meta">${t.filter.note}</span>` : ''}</div>
${table}${data}`;
}

// ---------------------------------------------------------------------------------------------
// blocks, tiles, sections

function renderTile(t: Tile): SafeHtml {
  return html`<div class="tile"><div class="k">${t.label}${badge(t.provenance)}</div><div class="v">${t.value}</div><div class="s">${t.sub}</div></div>`;
}

export function renderTiles(tiles: Tile[]): SafeHtml {
  return html`<div class="tiles">${joinHtml(tiles.map(renderTile), '\n')}</div>`;
}

async function renderBlock(b: Block, inDetails: boolean): Promise<SafeHtml> {
  switch (b.kind) {
    case 'table':
      return renderTable(b, inDetails);
    case 'charts': {
      const figs: SafeHtml[] = [];
      for (const c of b.charts) figs.push(await chartFigure(c));
      return html`<div class="charts">
${joinHtml(figs, '\n')}
</div>`;
    }
    case 'heading':
      return html`<h3${b.id ? html` id="${b.id}"` : ''}>${b.text}${badge(b.provenance)}</h3>`;
    case 'paragraph':
      return html`<p class="${b.muted ? 'muted' : 'meta'}">${b.text}</p>`;
    case 'kv':
      return html`<dl class="kv">${b.items.map((i) => html`<dt>${i.label}</dt><dd>${i.value}</dd>`)}</dl>`;
    case 'list':
      return html`<ul>${b.items.map((i) => html`<li>${i}</li>`)}</ul>`;
    case 'details':
      return html`<details><summary>${b.summary}</summary>${await renderBlocks(b.blocks, true)}</details>`;
    case 'banner':
      return html`<div class="banner${b.tone === 'bad' ? ' bad' : ''}" role="${b.tone === 'bad' ? 'alert' : 'note'}"${b.id ? html` id="${b.id}"` : ''}><b>${b.title}</b> ${b.text}</div>`;
  }
}

export async function renderBlocks(blocks: Block[], inDetails = false): Promise<SafeHtml> {
  const parts: SafeHtml[] = [];
  for (const b of blocks) parts.push(await renderBlock(b, inDetails));
  return joinHtml(parts, '\n');
}

/** One section: `<section id><h2>title + badge</h2> tiles + blocks</section>`. */
export async function renderSection(input: SectionInput): Promise<SafeHtml> {
  const { section, doc } = input;
  if (section.appliesTo && !section.appliesTo(doc)) return html``;
  const d: SectionDetails = section.build(doc);
  if (d.blocks.length === 0 && !d.tiles?.length) return html``;
  if (section.frame === 'bare') return renderBlocks(d.blocks);
  const prov = section.provenanceKeys.map((k: string) => input.provenance?.[k]).find((p: Provenance | undefined) => p !== undefined);
  const tiles = d.tiles?.length ? renderTiles(d.tiles) : '';
  return html`<section id="${section.id}"><h2>${section.title}${badge(prov)}</h2>
${tiles}${await renderBlocks(d.blocks)}
</section>`;
}

// ---------------------------------------------------------------------------------------------
// the page

/** The page script (table sorting + filter), a real file; inlined and allowed by its CSP hash. */
export function pageScript(): string {
  return readFileSync(`${TEMPLATE_DIR}page.js`, 'utf8');
}

/** where the build writes the chart runtime (scripts/lib/bundle.mjs bundlePage) */
const CHART_RUNTIME_FILE = join(REPO_ROOT, 'dist', 'page', 'chart-runtime.js');
let chartRuntimeText: string | undefined;
/**
 * The chart runtime (page/chart_runtime.ts as the build bundled it for the browser), inlined into
 * a page that has charts and allowed by its CSP hash. Missing: the build has not run.
 */
export function chartRuntime(): string {
  if (chartRuntimeText === undefined) {
    let text: string;
    try {
      text = readFileSync(CHART_RUNTIME_FILE, 'utf8');
    } catch {
      throw new Error(`the dashboard's chart runtime ${CHART_RUNTIME_FILE} is missing: run \`make build\` (or \`npm run build\`) first`);
    }
    // inlined as is: nothing in it may end the script element early
    if (/<\/script|<!--/i.test(text)) throw new Error(`${CHART_RUNTIME_FILE} holds "</script" or "<!--": it cannot be inlined`);
    chartRuntimeText = text;
  }
  return chartRuntimeText;
}

/** The page's Content-Security-Policy: nothing from anywhere, inline styles, and exactly these inline scripts (by hash). */
export function cspFor(...scripts: string[]): string {
  const hashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`);
  return [
    "default-src 'none'",
    `script-src ${hashes.join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "font-src 'none'",
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export interface PageInput {
  /** <title> text */
  title: string;
  /** the page header (document-level meta: tool, run, command line) */
  header: SafeHtml;
  /** <meta name="generator"> */
  generator: string;
  /** sections in page order, each with the document it reads */
  sections: SectionInput[];
  footer: string;
}

const SLOTS = ['csp', 'generator', 'title', 'header', 'sections', 'footer', 'chart_runtime', 'script'] as const;

/** Render any list of sections into the self-contained page (one template slot for sections). */
export async function renderPage(p: PageInput): Promise<string> {
  const template = readFileSync(`${TEMPLATE_DIR}dashboard.html`, 'utf8');
  const script = pageScript();
  const rendered: SafeHtml[] = [];
  for (const s of p.sections) rendered.push(await renderSection(s));
  // the chart runtime only in a page with a chart to draw (charts.ts chartFigure writes the one
  // element with this class; report text cannot: a quote is escaped in text and attributes)
  const charts = rendered.some((r) => r.value.includes(`class="${CHART_DATA_CLASS}"`)) ? chartRuntime() : null;
  const values: Record<(typeof SLOTS)[number], HtmlValue> = {
    csp: trustedHtml(charts ? cspFor(charts, script) : cspFor(script), 'built from literals and base64 hashes'),
    generator: p.generator,
    title: p.title,
    header: p.header,
    sections: joinHtml(
      rendered.filter((x) => x.value !== ''),
      '\n',
    ),
    footer: p.footer,
    // the scripts are our own files, inserted verbatim (escaping would change their CSP hashes)
    chart_runtime: charts
      ? trustedHtml(`<script>${charts}</script>`, 'dist/page/chart-runtime.js, bundled by our build, checked to hold no </script')
      : '',
    script: trustedHtml(script, 'reports-template/page.js, our own file'),
  };
  const used = new Set<string>();
  const out = template.replace(/\{\{([a-z_]+)\}\}/g, (_, name: string) => {
    if (!(SLOTS as readonly string[]).includes(name)) throw new Error(`dashboard template: unknown placeholder {{${name}}}`);
    used.add(name);
    return toHtml(values[name as (typeof SLOTS)[number]]).value;
  });
  for (const k of SLOTS) if (!used.has(k)) throw new Error(`dashboard template: placeholder {{${k}}} missing`);
  return out;
}

export { esc };
