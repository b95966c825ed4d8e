/**
 * Charts: each Vega-Lite spec in reports-template/charts/*.vl.json (no data in the file) gets
 * the rows a section's ChartRef carries, is compiled to Vega with `vega-lite` and pre-rendered
 * to static SVG in Node with vega's View.toSVG(). Why pre-render instead of inlining the Vega
 * runtime (vega.min.js, ~520 kB): the page needs no chart JavaScript at all (nothing can fail
 * or fetch at view time, and the CSP can forbid everything but one hashed inline script), the
 * file stays small, and the output is deterministic for a given report. What is lost is hover
 * tooltips; every number shown in a chart is also in a table.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TopLevelSpec, Config } from 'vega-lite';
import { CACHE_ROOT, COMPILED, REPO_ROOT, TEMPLATE_DIR } from '../constants.ts';
import type { ChartRef } from './details.ts';
import type { ChartColors } from './palette.ts';
import { html, trustedHtml, type SafeHtml } from './html.ts';

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

/** the charts' font; the page's CSS sets it on every chart (figure.chart svg), so no text repeats it */
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
  // number a chart shows is also in a table (a third of the SVG's bytes on a many-mark chart)
  aria: false,
};

const FONT_ATTR = ` font-family="${CHART_FONT}"`;
const GEOMETRY_ATTR = / (d|transform|x|y|x1|x2|y1|y2|width|height)="([^"]*)"/g;

/**
 * The SVG writer's output made lighter, drawing the same: the font attribute every text repeats
 * dropped (the page's CSS sets that font on the chart), and coordinates in geometry attributes
 * rounded to 1/100 px (it writes e.g. 90.49999999999999). Text and labels are left as written.
 */
export function slimSvg(svg: string): string {
  return svg
    .split(FONT_ATTR)
    .join('')
    .replace(
      GEOMETRY_ATTR,
      (_m, name: string, v: string) => ` ${name}="${v.replace(/-?\d+\.\d{3,}/g, (n) => String(Number(Number(n).toFixed(2))))}"`,
    );
}

/** Vega-Lite compile warnings known to be harmless for these specs (layers inside facets). */
const BENIGN_WARNINGS = ['Detected faceted independent scales that union domain'];
/** Non-benign compile warnings of the last render, per chart id (tests assert it stays empty). */
export const chartWarnings = new Map<string, string[]>();

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

/** Data -> Vega-Lite -> Vega -> static SVG string, in the chart worker when one was started (startChartWorker), else here. */
export async function renderChartSvg(id: string, rows: Row[], note?: string, color?: ChartColors): Promise<string> {
  return worker ? worker.render({ spec: id, rows, note, color }) : renderChartSvgHere(id, rows, note, color);
}

/** bump when the way a cached chart is made changes (compiledChart) */
const CHART_CACHE_FORMAT = 2;
type VegaSpec = import('vega').Spec;
interface CompiledChart {
  vega: VegaSpec;
  /** Vega-Lite's compile warnings */
  warnings: string[];
  /** vega.parse of `vega` (its dataflow, the rows left out: they go in with view.data) */
  runtime: unknown;
}
/** key -> the compiled chart as JSON text (parsed for each render: vega's parse may change what it reads) */
const compiledCharts = new Map<string, string>();
/** Forget the compiled charts kept in memory (tests: the next render reads .cache/charts again). */
export function forgetCompiledCharts(): void {
  compiledCharts.clear();
}

/**
 * A chart's Vega-Lite spec (data named `table`, no rows: the templates' own data entry) compiled
 * to Vega, and that parsed into vega's dataflow (vega.parse). Neither reads data, so both are
 * kept: in memory, and as JSON under .cache/charts/, keyed by the spec text, the format and
 * vega-lite's and vega's versions (cold, compiling is about a third of a chart's render, parsing
 * a quarter). A cache that cannot be read or written is ignored (compiled per process). `error`:
 * how a compile error is raised (the logger's error).
 */
async function compiledChart(
  spec: TopLevelSpec,
  versions: { vegaLite: string; vega: string },
  level: number,
  logError: (m: string) => never,
): Promise<CompiledChart> {
  const key = createHash('sha256')
    .update(JSON.stringify([CHART_CACHE_FORMAT, versions.vegaLite, versions.vega, spec]))
    .digest('hex')
    .slice(0, 32);
  const kept = compiledCharts.get(key);
  if (kept !== undefined) return JSON.parse(kept) as CompiledChart;
  const file = join(CACHE_ROOT, 'charts', `${key}.json`);
  try {
    const text = readFileSync(file, 'utf8');
    const got = JSON.parse(text) as CompiledChart;
    if (
      got &&
      typeof got.vega === 'object' &&
      got.vega !== null &&
      Array.isArray(got.warnings) &&
      typeof got.runtime === 'object' &&
      got.runtime !== null
    ) {
      compiledCharts.set(key, text);
      return got;
    }
  } catch {
    /* no cache yet, or unreadable: compile */
  }
  const [{ compile }, { parse }] = await Promise.all([import('vega-lite'), import('vega')]);
  const warnings: string[] = [];
  const logger = {
    level: () => level,
    warn(...args: unknown[]) {
      warnings.push(args.map(String).join(' '));
      return logger;
    },
    info: () => logger,
    debug: () => logger,
    error: (...args: unknown[]) => logError(args.map(String).join(' ')),
  };
  const vega = compile(spec, { logger: logger as never }).spec;
  // parsed from a copy: the parse may keep parts of what it reads
  const runtime = parse(JSON.parse(JSON.stringify(vega)) as VegaSpec);
  const text = JSON.stringify({ vega, warnings, runtime } satisfies CompiledChart);
  compiledCharts.set(key, text);
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch {
    /* read-only cache: compiled per process */
  }
  return JSON.parse(text) as CompiledChart;
}

/** Data -> Vega-Lite -> Vega -> static SVG string, on this thread. */
export async function renderChartSvgHere(id: string, rows: Row[], note?: string, color?: ChartColors): Promise<string> {
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
  // vega + vega-lite load on the first chart only (comply's html output and the CLI start skip them)
  const [vega, { version }] = await Promise.all([import('vega'), import('vega-lite')]);
  const fail = (m: string): never => {
    throw new Error(`chart ${id}: ${m}`);
  };
  const made = await compiledChart(spec, { vegaLite: version, vega: vega.version }, vega.Warn, fail);
  // the rows go into the compiled spec's own data entry (view.data below)
  if (!made.vega.data?.some((d) => d.name === CHART_DATA)) fail(`the compiled spec has no data "${CHART_DATA}"`);
  const warnings: string[] = [...made.warnings];
  chartWarnings.set(id, warnings);
  const logger = {
    level(): number {
      return vega.Warn;
    },
    warn(...args: unknown[]) {
      warnings.push(args.map(String).join(' '));
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
    error(...args: unknown[]) {
      fail(args.map(String).join(' '));
    },
  };
  const view = new vega.View(made.runtime as ReturnType<typeof vega.parse>, {
    renderer: 'none',
    logger: logger as never,
    logLevel: vega.Warn,
  });
  try {
    view.data(CHART_DATA, rows);
    return slimSvg(await view.toSVG());
  } finally {
    view.finalize();
    const kept = warnings.filter((w) => !BENIGN_WARNINGS.some((b) => w.includes(b)));
    warnings.length = 0;
    warnings.push(...kept);
  }
}

/**
 * One chart reference -> <figure> with the static SVG, or a "no data" note. The SVG waits in a
 * <template> (not part of the page until used) behind a slot of its size; the page script puts it
 * in when the figure comes near the window, so charts below the first screen cost no layout.
 */
export async function chartFigure(c: ChartRef): Promise<SafeHtml> {
  const title = (loadChartSpec(c.spec) as { title?: { text?: string } }).title?.text ?? c.spec;
  if (c.rows.length === 0) {
    return html`<figure class="chart nodata" data-chart="${c.spec}"><figcaption>${title}</figcaption><p class="nodata-note">No data: ${c.empty}.</p></figure>`;
  }
  const svg = await renderChartSvg(c.spec, c.rows, c.note, c.color);
  const size = /^<svg [^>]*?width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)"/.exec(svg);
  const slot = size ? html`<div class="chart-slot" style="aspect-ratio: ${size[1]} / ${size[2]}; max-width: ${size[1]}px"></div>` : '';
  return html`<figure class="chart" data-chart="${c.spec}" aria-label="${title}">${slot}<template>${trustedHtml(svg, "vega's SVG writer escapes every text it draws")}</template></figure>`;
}

/** a chart render request to the worker, and its answer (chart_worker.ts) */
export interface ChartJob {
  id: number;
  spec: string;
  rows: Row[];
  note?: string;
  color?: ChartColors;
}
export type ChartReply = { id: number; svg: string; warnings: string[] } | { id: number; error: string };

interface ChartWorker {
  render(job: Omit<ChartJob, 'id'>): Promise<string>;
  /** send `job` now unless it was sent already; render() of it takes the answer */
  prefetch(job: Omit<ChartJob, 'id'>): void;
}
/** what the chart worker thread runs, compiled: dist/chart-bundle/chart_worker.cjs through requireLight */
const CHART_WORKER_BIN = resolve(REPO_ROOT, 'bin', 'chart-worker.mjs');
let worker: ChartWorker | undefined;
let workerThread: Worker | undefined;

/** Ends the chart worker (a failed run: nothing more will be drawn); later charts render on this thread. */
export async function stopChartWorker(): Promise<void> {
  const w = workerThread;
  worker = undefined;
  workerThread = undefined;
  if (!w) return;
  // ended on purpose: a chart still queued (one sent early whose rows the run then changed, or
  // one of a failed run) is nobody's to draw, so it is not drawn here instead
  w.removeAllListeners('exit');
  w.removeAllListeners('error');
  await w.terminate();
}

/**
 * With the chart worker running: send it every chart of `refs` now, so it renders while this
 * thread works (write.ts, before the tables and the page; and `bench` once the offline stage is
 * done, from the report as it stands then: charts whose rows the later stages do not change are
 * drawn while those stages run). A later renderChartSvg of the same chart (same spec, rows, note
 * and colours) takes that answer; a chart sent again before then is not drawn twice. Without the
 * worker: nothing (the page renders each chart when it gets to it).
 */
export function prefetchCharts(refs: readonly ChartRef[]): void {
  if (!worker) return;
  for (const c of refs) if (c.rows.length > 0) worker.prefetch({ spec: c.spec, rows: c.rows, note: c.note, color: c.color });
}

/**
 * Chart rendering off the critical path (issue 31): `bench` calls this when it starts, so a
 * worker thread loads vega + vega-lite (their light bundle: ~0.1 s of CPU with the code cache,
 * ~0.35 s as ES modules) while the main thread runs the offline stage; every renderChartSvg after it renders there, and the main thread builds the tables
 * meanwhile (write.ts starts the page before them). Only from the compiled code (dist/): the
 * sources (tests through tsx) render on their own thread. The thread never keeps the process alive
 * when no render is pending; if it fails, that render and the next run here.
 */
export function startChartWorker(): void {
  if (worker || !COMPILED) return;
  // the worker's own light bundle with V8's code cache (bin/chart-worker.mjs; scripts/lib/bundle.mjs)
  const w = new Worker(CHART_WORKER_BIN, { execArgv: [] });
  workerThread = w;
  w.unref();
  const pending = new Map<number, { job: Omit<ChartJob, 'id'>; resolve: (svg: string) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let broken = false;
  // a failed thread: what it had not answered renders here (the same function, the same SVG)
  const fallBack = () => {
    broken = true;
    for (const p of pending.values()) renderChartSvgHere(p.job.spec, p.job.rows, p.job.note, p.job.color).then(p.resolve, p.reject);
    pending.clear();
  };
  w.on('error', fallBack);
  w.on('exit', fallBack);
  w.on('message', (m: ChartReply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) w.unref();
    if ('error' in m) p.reject(new Error(m.error));
    else {
      chartWarnings.set(p.job.spec, m.warnings);
      p.resolve(m.svg);
    }
  });
  // prefetched charts by their inputs, until the page asks for them (each is drawn once)
  const memo = new Map<string, Promise<string>>();
  const keyOf = (job: Omit<ChartJob, 'id'>) => JSON.stringify([job.spec, job.rows, job.note ?? null, job.color ?? null]);
  // test hook: one line per chart sent to the worker (test/report/chart-prefetch.test.ts)
  const trace = process.env.MCPGAUGE_TRACE_CHARTS;
  const post = (job: Omit<ChartJob, 'id'>) =>
    new Promise<string>((resolve, reject) => {
      if (trace) appendFileSync(trace, `${job.spec}\n`);
      const id = nextId++;
      pending.set(id, { job, resolve, reject });
      w.ref();
      w.postMessage({ id, ...job } satisfies ChartJob);
    });
  worker = {
    render(job) {
      if (broken) return renderChartSvgHere(job.spec, job.rows, job.note, job.color);
      const key = keyOf(job);
      const hit = memo.get(key);
      if (hit) {
        memo.delete(key);
        return hit;
      }
      return post(job);
    },
    prefetch(job) {
      if (broken) return;
      const key = keyOf(job);
      if (memo.has(key)) return;
      const p = post(job);
      p.catch(() => undefined); // a failure reaches the page's render of it, if it asks
      memo.set(key, p);
    },
  };
}
