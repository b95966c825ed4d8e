/**
 * The one renderer: draws any section's details (tiles, typed tables, chart references, text
 * blocks) into HTML, and any list of sections (each with the document it reads) into the
 * self-contained page (reports-template/dashboard.html + page.js, CSP-hashed).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Figure, Provenance } from '../types.ts';
import { TEMPLATE_DIR } from '../constants.ts';
import { chartFigure } from './charts.ts';
import type { Block, CellValue, Column, RichCell, SectionDetails, SectionInput, TableDetails, Tile } from './details.ts';
import { esc, html, joinHtml, SafeHtml, toHtml, trustedHtml, type HtmlValue } from './html.ts';

// ---------------------------------------------------------------------------------------------
// formatting

export function fmtInt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}
// one formatter per digit count (toLocaleString with options builds a new one per call)
const NUM_FORMATS = new Map<number, Intl.NumberFormat>();
export function fmtNum(x: number, digits = 1): string {
  if (Number.isInteger(x) && Math.abs(x) >= 1000) return fmtInt(x);
  let f = NUM_FORMATS.get(digits);
  if (!f) NUM_FORMATS.set(digits, (f = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return f.format(x);
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
export const rich = (fragment: SafeHtml, sort?: number | string | null, extra: Omit<RichCell, 'rich' | 'sort'> = {}): RichCell => ({ rich: fragment, sort, ...extra });

// ---------------------------------------------------------------------------------------------
// tables

interface Cell {
  html: SafeHtml;
  sort?: number | string | null;
  num?: boolean;
  nw?: boolean;
  wide?: boolean;
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
  const ci = f.ci95 ? html` <span class="ci">[${c.metric ? fmtMetric(f.ci95[0]) : fmtNum(f.ci95[0], 1)}, ${c.metric ? fmtMetric(f.ci95[1]) : fmtNum(f.ci95[1], 1)}]</span>` : '';
  const title = `${f.value} ${f.unit} (${f.provenance}${f.tokenizer ? `, ${f.tokenizer}` : ''}${f.n !== undefined ? `, n=${f.n}` : ''})`;
  const neg = c.pct && f.value < 0;
  const body = neg ? html`<span class="neg" title="${title}">${v}${c.pct ? '%' : ''}</span>` : html`<span title="${title}">${v}${c.pct ? '%' : ''}</span>`;
  return { html: html`${body}${ci}${c.badge ? badge(f.provenance) : ''}`, sort: f.value, num: true };
}

function cellOf(v: CellValue, c: Column): Cell {
  if (isRich(v)) return { html: v.rich, sort: v.sort, num: v.num, nw: v.nw, colspan: v.colspan, wide: c.wide };
  switch (c.type) {
    case 'text':
    case 'ident':
    case 'key': {
      const s = v === undefined || v === null ? '' : String(v);
      return { html: c.type === 'key' ? html`<b>${s}</b>` : toHtml(s), sort: s, nw: c.type !== 'text', wide: c.wide };
    }
    case 'int':
      return typeof v === 'number' ? { html: toHtml(fmtInt(v)), sort: v, num: true } : { html: DASH, sort: null, num: true };
    case 'num':
      return typeof v === 'number' ? { html: toHtml(fmtNum(v, c.digits ?? 1)), sort: v, num: true } : { html: DASH, sort: null, num: true };
    case 'figure':
      return figureCell(v as Figure | undefined, c);
  }
}

function renderCell(c: Cell): SafeHtml {
  const sortAttr = c.sort === undefined ? '' : html` data-v="${c.sort === null ? '' : c.sort}"`;
  const span = c.colspan ? html` colspan="${c.colspan}"` : '';
  const cls = [c.num ? 'num' : '', c.nw ? 'nw' : '', c.wide ? 'wide' : ''].filter(Boolean).join(' ');
  return html`<td${cls ? html` class="${cls}"` : ''}${sortAttr}${span}>${c.html}</td>`;
}

export function renderTable(t: TableDetails): SafeHtml {
  const th = t.columns.map((c) => html`<th class="sortable" scope="col">${c.label}</th>`);
  const body = joinHtml(
    t.rows.map((row, i) => {
      const cls = t.rowClasses?.[i] ?? '';
      const cells: SafeHtml[] = [];
      for (const c of t.columns) {
        const cell = cellOf(row[c.key], c);
        cells.push(renderCell(cell));
        if (cell.colspan) break;
      }
      return html`<tr${cls ? html` class="${cls}"` : ''}>${cells}</tr>`;
    }),
    '\n',
  );
  const empty = t.rows.length === 0 ? html`<tr><td colspan="${t.columns.length}" class="muted">no rows</td></tr>` : '';
  const table = html`<div class="tablewrap"><table${t.id ? html` id="${t.id}"` : ''} class="sortable-table">${t.caption ? html`<caption class="meta">${t.caption}</caption>` : ''}<thead><tr>${th}</tr></thead><tbody>${body}${empty}</tbody></table></div>`;
  if (!t.filter || !t.id) return table;
  return html`<div class="filter"><label>Filter rows: <input type="search" data-filter="${t.id}" placeholder="${t.filter.placeholder}"></label>${t.filter.note ? html` <span class="meta">${t.filter.note}</span>` : ''}</div>
${table}`;
}

// ---------------------------------------------------------------------------------------------
// blocks, tiles, sections

function renderTile(t: Tile): SafeHtml {
  return html`<div class="tile"><div class="k">${t.label}${badge(t.provenance)}</div><div class="v">${t.value}</div><div class="s">${t.sub}</div></div>`;
}

export function renderTiles(tiles: Tile[]): SafeHtml {
  return html`<div class="tiles">${joinHtml(tiles.map(renderTile), '\n')}</div>`;
}

async function renderBlock(b: Block): Promise<SafeHtml> {
  switch (b.kind) {
    case 'table':
      return renderTable(b);
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
      return html`<details><summary>${b.summary}</summary>${await renderBlocks(b.blocks)}</details>`;
    case 'banner':
      return html`<div class="banner${b.tone === 'bad' ? ' bad' : ''}" role="${b.tone === 'bad' ? 'alert' : 'note'}"${b.id ? html` id="${b.id}"` : ''}><b>${b.title}</b> ${b.text}</div>`;
  }
}

export async function renderBlocks(blocks: Block[]): Promise<SafeHtml> {
  const parts: SafeHtml[] = [];
  for (const b of blocks) parts.push(await renderBlock(b));
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

export function cspFor(script: string): string {
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

const SLOTS = ['csp', 'generator', 'title', 'header', 'sections', 'footer', 'script'] as const;

/** Render any list of sections into the self-contained page (one template slot for sections). */
export async function renderPage(p: PageInput): Promise<string> {
  const template = readFileSync(`${TEMPLATE_DIR}dashboard.html`, 'utf8');
  const script = pageScript();
  const rendered: SafeHtml[] = [];
  for (const s of p.sections) rendered.push(await renderSection(s));
  const values: Record<(typeof SLOTS)[number], HtmlValue> = {
    csp: trustedHtml(cspFor(script), 'built from literals and a base64 hash'),
    generator: p.generator,
    title: p.title,
    header: p.header,
    sections: joinHtml(rendered.filter((x) => x.value !== ''), '\n'),
    footer: p.footer,
    // the script is our own file, inserted verbatim (escaping would change its CSP hash)
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
