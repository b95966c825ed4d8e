/**
 * Charts: each Vega-Lite spec in reports-template/charts/*.vl.json (no data in the file) is
 * compiled to Vega here, with the chart's colours and note, and the page draws it: the figure
 * carries the compiled spec and the rows a section's ChartRef gives (packed as the renderer packs
 * rows drawn on demand, pack.ts packRows), and the page script hands them to the chart runtime
 * (page/chart_runtime.ts, parts of Vega bundled for the browser, inlined once per page) when the
 * figure comes near the window. A compile reads no data, so it is kept under .cache/charts/ by
 * the spec's text and vega-lite's version: a run whose charts were compiled before loads no
 * vega-lite at all.
 *
 * Why the page draws (issue 31, measured 2026-12-06): drawing the SVG in Node took vega's cold
 * code ~0.13 s of CPU per run for seven charts, plus ~0.1 s to load vega, the last thing a
 * corpus_v2-sized bench waited for (0.42 s against the Go bench's 0.16 s; 0.28 s without the
 * charts); in the page the runtime costs ~0.4 MB of script once per dashboard, and the default
 * dashboard scores 0.98 on Lighthouse's desktop performance (docs/performance.md). What changes for a reader:
 * charts need JavaScript (every number a chart shows is also in a table), and are drawn with the
 * browser's own text measurement.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TopLevelSpec, Config } from 'vega-lite';
import { CACHE_ROOT, TEMPLATE_DIR } from '../constants.ts';
import { writeFileAtomic } from '../util/fs.ts';
import type { ChartRef } from './details.ts';
import type { ChartColors } from './palette.ts';
import { html, type SafeHtml } from './html.ts';
import { PACKED_ROWS_TYPE, packRows } from './pack.ts';

type Row = Record<string, string | number | null>;
/** the data every chart template names (`"data": {"name": "table"}`); the rows go there */
const CHART_DATA = 'table';

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
  return readdirSync(`${TEMPLATE_DIR}charts`)
    .filter((f) => f.endsWith('.vl.json'))
    .map((f) => f.slice(0, -'.vl.json'.length))
    .sort();
}

/** the charts' font (the page's CSS sets the same on every chart's text, figure.chart svg text) */
export const CHART_FONT = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';

const CHART_CONFIG: Config = {
  background: '#ffffff',
  padding: 6,
  font: CHART_FONT,
  title: { anchor: 'start' as const, fontSize: 13, subtitleFontSize: 10, subtitleColor: '#5b6270' },
  axis: { labelFontSize: 10, titleFontSize: 11 },
  legend: { labelFontSize: 10, labelLimit: 240 },
  view: { stroke: '#d9dde3' },
  // no ARIA role and description on every mark: the figure is labelled as a whole and every
  // number a chart shows is also in a table
  aria: false,
};

/**
 * Write a chart's colours (report/palette.ts) into every colour encoding of `field` in the spec
 * (top level, facet inner spec, layers): the spec keeps its legend, the scale gets the domain and range.
 */
export function applyColors(spec: unknown, c: ChartColors | undefined): void {
  if (!c || c.domain.length === 0) return;
  const walk = (o: unknown): void => {
    if (Array.isArray(o)) {
      o.forEach(walk);
      return;
    }
    if (!o || typeof o !== 'object') return;
    const rec = o as Record<string, unknown>;
    const enc = rec.encoding as Record<string, Record<string, unknown>> | undefined;
    if (enc?.color && enc.color.field === c.field) {
      enc.color.scale = { domain: c.domain, range: c.range };
      // an offset channel on the same field takes the same domain (Vega-Lite unions the two and
      // warns when only one of them is explicit)
      for (const ch of ['xOffset', 'yOffset'])
        if (enc[ch]?.field === c.field) enc[ch].scale = { ...(enc[ch].scale as object), domain: c.domain };
    }
    for (const k of ['spec', 'layer']) if (k in rec) walk(rec[k]);
  };
  walk(spec);
}

/** Vega-Lite compile warnings known to be harmless for these specs (layers inside facets). */
const BENIGN_WARNINGS = ['Detected faceted independent scales that union domain'];
/** Non-benign compile warnings of the last compile of each chart id (tests assert it stays empty). */
export const chartWarnings = new Map<string, string[]>();

/** bump when the way a cached chart is made changes (compiledChart) */
const CHART_CACHE_FORMAT = 3;
type VegaSpec = Record<string, unknown> & { data?: { name: string }[] };
interface CompiledChart {
  vega: VegaSpec;
  /** Vega-Lite's compile warnings */
  warnings: string[];
}
/** a compiled chart (a cache entry that is not one is compiled again): a Vega spec with the `table` data, and the warnings */
function isCompiledChart(c: unknown): c is CompiledChart {
  const v = (c as Partial<CompiledChart> | null)?.vega;
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Array.isArray((c as CompiledChart).warnings) &&
    Array.isArray(v.data) &&
    v.data.some((d) => d?.name === CHART_DATA)
  );
}

/** key -> the compiled chart as JSON text */
const compiledCharts = new Map<string, string>();
/** Forget the compiled charts kept in memory (tests: the next compile reads .cache/charts again). */
export function forgetCompiledCharts(): void {
  compiledCharts.clear();
}

const require = createRequire(import.meta.url);
let vegaLiteVersion: string | undefined;
/** vega-lite's version, read from its package.json (the package itself loads only to compile; its exports map hides package.json) */
function vlVersion(): string {
  if (vegaLiteVersion === undefined) {
    let dir = dirname(require.resolve('vega-lite'));
    for (;;) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'vega-lite' && pkg.version) {
          vegaLiteVersion = pkg.version;
          break;
        }
      } catch {
        /* not here: one folder up */
      }
      const up = dirname(dir);
      if (up === dir) throw new Error(`vega-lite's package.json not found above ${require.resolve('vega-lite')}`);
      dir = up;
    }
  }
  return vegaLiteVersion;
}

/** The Vega-Lite spec a chart compiles from: the template with the chart's colours, note and the config. */
function chartSpec(id: string, note?: string, color?: ChartColors): TopLevelSpec {
  const spec = loadChartSpec(id) as TopLevelSpec & {
    data?: { name?: string };
    title?: { text: string; subtitle?: string };
    config?: unknown;
  };
  if (spec.data?.name !== CHART_DATA) throw new Error(`chart ${id}: its data must be {"name": "${CHART_DATA}"}`);
  applyColors(spec, color);
  if (note && spec.title && typeof spec.title === 'object')
    spec.title.subtitle = `${spec.title.subtitle ?? ''}${spec.title.subtitle ? ' · ' : ''}${note}`;
  spec.config = CHART_CONFIG;
  return spec;
}

/**
 * A chart's Vega spec: its Vega-Lite spec (chartSpec) compiled, the rows left out (they go into
 * the compiled spec's own `table` data in the page). A compile reads no data, so it is kept: in
 * memory, and as JSON under .cache/charts/, keyed by the spec text, the format and vega-lite's
 * version; vega-lite loads only when a chart is not there. A cache entry that cannot be read or
 * is not a compiled chart is compiled again; one that cannot be written is ignored.
 */
export async function compiledChart(id: string, note?: string, color?: ChartColors): Promise<CompiledChart> {
  const spec = chartSpec(id, note, color);
  const key = createHash('sha256')
    .update(JSON.stringify([CHART_CACHE_FORMAT, vlVersion(), spec]))
    .digest('hex')
    .slice(0, 32);
  let text = compiledCharts.get(key);
  const file = join(CACHE_ROOT, 'charts', `${key}.json`);
  if (text === undefined) {
    try {
      const got = readFileSync(file, 'utf8');
      if (isCompiledChart(JSON.parse(got))) text = got;
    } catch {
      /* no cache yet, or unreadable: compile */
    }
  }
  if (text === undefined) {
    const { compile } = await import('vega-lite');
    const warnings: string[] = [];
    const fail = (m: string): never => {
      throw new Error(`chart ${id}: ${m}`);
    };
    const logger = {
      // vega-util's Warn level: warnings come to warn(), nothing finer is asked for
      level: () => 2,
      warn(...args: unknown[]) {
        warnings.push(args.map(String).join(' '));
        return logger;
      },
      info: () => logger,
      debug: () => logger,
      error: (...args: unknown[]) => fail(args.map(String).join(' ')),
    };
    const made = { vega: compile(spec, { logger: logger as never }).spec as VegaSpec, warnings } satisfies CompiledChart;
    if (!isCompiledChart(made)) throw new Error(`chart ${id}: the compiled spec has no data "${CHART_DATA}"`);
    text = JSON.stringify(made);
    try {
      writeFileAtomic(file, text);
    } catch {
      /* read-only cache: compiled per process */
    }
  }
  compiledCharts.set(key, text);
  const made = JSON.parse(text) as CompiledChart;
  chartWarnings.set(
    id,
    made.warnings.filter((w) => !BENIGN_WARNINGS.some((b) => w.includes(b))),
  );
  return made;
}

/** the class of a figure's packed chart (render.ts inlines the chart runtime into a page that has one) */
export const CHART_DATA_CLASS = 'chart-data';

/** a chart as the page gets it: its compiled Vega spec and its rows (packed, pack.ts packRows) */
interface ChartPayload {
  spec: VegaSpec;
  rows: Row[];
}

/**
 * One chart reference -> <figure> with the chart for the page to draw, or a "no data" note. The
 * compiled spec and the rows travel packed (JSON, gzip, base64: no report text can leave the
 * block); the page script draws the chart into its slot when the figure comes near the window.
 */
export async function chartFigure(c: ChartRef): Promise<SafeHtml> {
  const title = (loadChartSpec(c.spec) as { title?: { text?: string } }).title?.text ?? c.spec;
  if (c.rows.length === 0) {
    return html`<figure class="chart nodata" data-chart="${c.spec}"><figcaption>${title}</figcaption><p class="nodata-note">No data: ${c.empty}.</p></figure>`;
  }
  const { vega } = await compiledChart(c.spec, c.note, c.color);
  const payload: ChartPayload = { spec: vega, rows: c.rows };
  return html`<figure class="chart" data-chart="${c.spec}" aria-label="${title}"><div class="chart-slot"></div><script type="${PACKED_ROWS_TYPE}" class="${CHART_DATA_CLASS}">${packRows(payload)}</script></figure>`;
}
