/**
 * Opens the dashboard of a realistic sample report in headless Debian Chromium
 * (playwright-core) with every non-file request blocked and recorded: there must be none, no
 * console or page errors, every chart must hold a rendered SVG with marks, tables must sort,
 * hostile text must stay text. Saves results/test-artifacts/dashboard.png.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { CHROMIUM_SKIP, launchChromium } from './browser.ts';
import { writeReport } from '../../pipeline/report/write.ts';
import { REPORT_SECTIONS } from '../../pipeline/sections.ts';
import { chartWarnings, compiledChart, templateChartIds } from '../../pipeline/report/dashboard.ts';
import { SYSTEMS_CHART } from '../../pipeline/report/sections/systems.ts';
import { SCALE_CHART } from '../../pipeline/scale/section.ts';
import { forgetCompiledCharts } from '../../pipeline/report/charts.ts';
import { renderPage } from '../../pipeline/report/render.ts';
import { html } from '../../pipeline/report/html.ts';
import { sectionFor } from '../../pipeline/report/details.ts';
import { CACHE_ROOT } from '../../pipeline/constants.ts';
import { CHARTS } from '../../pipeline/report/sections/charts.ts';
import { capRows, offlinePerQueryRows } from '../../pipeline/report/sections/common.ts';
import { isScored, type Report } from '../../pipeline/report/types.ts';
import { buildSampleReport, buildSystemsSample, HOSTILE_TEXT, withVariants } from './sample.ts';
import { gateSectionInput } from '../../pipeline/gate/section.ts';
import type { GateReport } from '../../pipeline/gate/report.ts';

/** a gate report of a real run (npm mcp-proxy preset, compliance on), committed as measured */
const GATE_SAMPLE = resolve(import.meta.dirname, '../gate/samples/mcp-proxy.gate-report.json');

// skipped only outside CI: with CI=true a missing Chromium fails the run (launch throws)
const SKIP = CHROMIUM_SKIP;
const CHART_IDS = CHARTS.filter((c) => !c.live).map((c) => c.spec);
const LIVE_CHART_IDS = CHARTS.filter((c) => c.live).map((c) => c.spec);

/** the sample with hostile text in a corpus name, a query and the live target description */
function hostileSample(): Report {
  const r = buildSampleReport();
  r.corpora[0].name = HOSTILE_TEXT;
  r.live!.target.description = HOSTILE_TEXT;
  const q = r.retrieval.find(isScored)!.per_query![0];
  q.query = HOSTILE_TEXT;
  return r;
}
const ARTIFACTS = resolve(import.meta.dirname, '../../results/test-artifacts');

let work = '';
let context: BrowserContext | undefined;

before(async () => {
  if (SKIP) return;
  work = mkdtempSync(join(tmpdir(), 'mcpgauge-dash-'));
  context = await launchChromium(work, { width: 1320, height: 900 });
});

after(async () => {
  await context?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Loaded {
  page: Page;
  foreign: string[];
  consoleErrors: string[];
  pageErrors: string[];
}

async function open(file: string): Promise<Loaded> {
  const url = pathToFileURL(file).href;
  const page = await context!.newPage();
  const foreign: string[] = [];
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  page.on('request', (r) => {
    if (r.url() !== url) foreign.push(r.url());
  });
  await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(url, { waitUntil: 'load' });
  return { page, foreign, consoleErrors, pageErrors };
}

/**
 * Scroll every chart into view (the page draws a chart when its figure comes near the window)
 * and wait until each figure with data is drawn (page.js marks it `drawn`, or `failed`).
 */
async function revealCharts(page: Page): Promise<void> {
  const n = await page.locator('figure.chart').count();
  for (let i = 0; i < n; i++) await page.locator('figure.chart').nth(i).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('figure.chart:not(.nodata)')].every(
        (f) => (f.classList.contains('drawn') && f.querySelector('svg')) || f.classList.contains('failed'),
      ),
    undefined,
    { timeout: 10_000 },
  );
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * chart id -> number of data marks inside its SVG that have a visible area (bars, points,
 * line paths; text and zero-size shapes do not count). -1 = no SVG, 'nodata' = note shown.
 */
async function chartMarks(page: Page): Promise<Record<string, number | 'nodata'>> {
  await revealCharts(page);
  return page.$$eval('figure.chart', (figs) => {
    const out: Record<string, number | 'nodata'> = {};
    for (const f of figs) {
      const id = f.getAttribute('data-chart') ?? '?';
      if (f.classList.contains('nodata')) {
        out[id] = f.querySelector('.nodata-note') ? 'nodata' : -1;
        continue;
      }
      const svg = f.querySelector('svg');
      if (!svg) {
        out[id] = -1;
        continue;
      }
      const box = svg.getBoundingClientRect();
      if (box.width < 100 || box.height < 50) {
        out[id] = -1;
        continue;
      }
      const shapes = svg.querySelectorAll('g.role-mark > path, g.role-mark > rect, g.role-mark > line');
      let drawn = 0;
      for (const el of shapes) {
        const b = (el as SVGGraphicsElement).getBBox();
        if (b.width * b.height > 1) drawn++;
      }
      out[id] = drawn;
    }
    return out;
  });
}

test('dashboard renders in headless Chromium with no network loads, no errors, every chart drawn', { skip: SKIP }, async () => {
  const dir = join(work, 'full');
  const report = hostileSample();
  const written = await writeReport(report, dir, REPORT_SECTIONS);
  const { page, foreign, consoleErrors, pageErrors } = await open(written.dashboard ?? 'no dashboard written');

  const marks = await chartMarks(page);
  assert.deepEqual(Object.keys(marks).sort(), [...CHART_IDS, ...LIVE_CHART_IDS].sort());
  for (const [id, n] of Object.entries(marks)) {
    assert.ok(typeof n === 'number' && n > 0, `chart ${id} has no rendered marks (${n})`);
  }
  // stacked components (cl100k_base): one segment per non-zero component of each ok response
  const segments = report
    .live!.responses.filter((x) => x.ok && x.tokenizer === 'cl100k_base')
    .flatMap((x) => Object.values(x.components!).filter((v) => v > 0)).length;
  assert.ok(segments > 0);
  assert.equal(marks.live_components, segments);
  // latency: 4 percentiles x each detail level, all visible on the log scale
  assert.equal(marks.live_latency, 4 * report.live!.latency.length);
  // no Vega-Lite / Vega warnings while rendering (e.g. a log scale that includes zero)
  assert.deepEqual(Object.fromEntries([...chartWarnings].filter(([, w]) => w.length > 0)), {});

  // hostile tool/query text is shown as text, never run or parsed as markup
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.equal(await page.locator('main img').count(), 0);
  // textContent, not innerText: sections off the screen are not rendered yet (content-visibility),
  // and markup the browser had parsed would leave no literal '<img ...>' in the text either way
  const bodyText = await page.locator('body').evaluate((b) => b.textContent ?? '');
  assert.ok(bodyText.includes('<img src=x onerror="window.__pwned=1">'), 'hostile text should appear literally');
  assert.ok(bodyText.includes(HOSTILE_TEXT.slice(0, 20)));

  // caveat banner and provenance badges
  assert.match(await page.locator('#tokenizer-caveat').innerText(), /Tokenizer caveat\..*cl100k_base/s);
  for (const p of ['measured', 'computed', 'estimated'])
    assert.ok((await page.locator(`#headlines .badge.${p}, section .badge.${p}`).count()) > 0, `no ${p} badge`);

  // sorting: click "Total (cl100k_base)" in the arms table -> ascending, click again -> descending
  const col = await page.$$eval('#arms-table thead th', (ths) => ths.findIndex((t) => t.textContent === 'Total (cl100k_base)'));
  assert.ok(col > 0);
  const values = () =>
    page.$$eval(
      '#arms-table tbody tr',
      (rows, c) => rows.map((r) => (r as HTMLTableRowElement).cells[c].getAttribute('data-v') ?? ''),
      col,
    );
  const th = page.locator('#arms-table thead th').nth(col);
  await th.click();
  const asc = (await values()).filter((v) => v !== '').map(Number);
  assert.equal(asc.length, report.arms.filter((a) => !a.skipped).length);
  assert.deepEqual(
    asc,
    [...asc].sort((a, b) => a - b),
  );
  assert.equal(await th.getAttribute('aria-sort'), 'ascending');
  await th.click();
  const desc = (await values()).filter((v) => v !== '').map(Number);
  assert.deepEqual(
    desc,
    [...asc].sort((a, b) => b - a),
  );
  // the skipped arms (no totals) stay at the bottom in both directions
  const skipped = report.arms.filter((a) => a.skipped).length;
  assert.ok(skipped > 0);
  assert.deepEqual((await values()).slice(-skipped), Array(skipped).fill(''));

  // filter box narrows the per-query table (collapsed: opened first, its rows drawn on demand)
  await page.locator('details:has(#per-query-table) > summary').click();
  await page.waitForFunction(() => !document.querySelector('#per-query-table[data-rows]'));
  const qid = report.retrieval.find(isScored)!.per_query![1].query_id;
  await page.fill('input[data-filter="per-query-table"]', qid);
  const visible = await page.$$eval(
    '#per-query-table tbody tr',
    (rows) => rows.filter((r) => (r as HTMLElement).style.display !== 'none').length,
  );
  // the page shows the capped rows (every weak row kept), as the retrieval section chooses them
  const shown = capRows(offlinePerQueryRows(report));
  const expected = shown.filter(({ q }) => q.query_id.includes(qid) || q.query.toLowerCase().includes(qid)).length;
  assert.ok(expected > 1);
  assert.equal(visible, expected); // one row per scored (corpus, arm, retriever)
  await page.fill('input[data-filter="per-query-table"]', '');

  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });

  assert.deepEqual(foreign, [], 'the dashboard made network requests');
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

test('a chart without data shows a "no data" note; live panels only with a live section', { skip: SKIP }, async () => {
  const r = buildSampleReport({ live: false });
  r.retrieval = r.retrieval.map((x) => ({
    corpus_id: x.corpus_id,
    arm: x.arm,
    retriever: x.retriever,
    not_scorable: 'no golden set for this corpus',
  }));
  r.economics = { break_even: [], session_estimates: [], curves: [] };
  const written = await writeReport(r, join(work, 'sparse'), REPORT_SECTIONS);
  const { page, foreign, consoleErrors, pageErrors } = await open(written.dashboard ?? 'no dashboard written');
  const marks = await chartMarks(page);
  assert.deepEqual(Object.keys(marks).sort(), [...CHART_IDS].sort());
  assert.equal(marks.savings_vs_recall, 'nodata');
  assert.equal(marks.recall_curves, 'nodata');
  assert.equal(marks.break_even, 'nodata');
  assert.ok(typeof marks.tokens_per_arm === 'number' && marks.tokens_per_arm > 0);
  assert.ok(typeof marks.per_tool_distribution === 'number' && marks.per_tool_distribution > 0);
  assert.match(await page.locator('figure[data-chart="recall_curves"]').innerText(), /No data: no corpus with a golden set was scored/);
  assert.equal(await page.locator('#live').count(), 0);
  assert.deepEqual(foreign, []);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

test('no chart draws a text over another, and wide tables scroll inside their frame instead of being cut (the gate grid of a real run included)', {
  skip: SKIP,
}, async () => {
  // bench + gate: the gate section from a committed real run (npm mcp-proxy, 8 cells x 13 steps)
  const gate = JSON.parse(readFileSync(GATE_SAMPLE, 'utf8')) as GateReport;
  const written = await writeReport(withVariants(buildSampleReport()), join(work, 'layout'), REPORT_SECTIONS, [gateSectionInput(gate)]);
  const { page } = await open(written.dashboard ?? 'no dashboard written');
  await page.setViewportSize({ width: 1400, height: 900 });
  await revealCharts(page);
  const overlaps = await page.$$eval('figure.chart svg', (svgs) => {
    const out: string[] = [];
    for (const svg of svgs) {
      const id = svg.closest('figure')?.getAttribute('data-chart') ?? '?';
      // each visible text's box in its own (possibly rotated) frame: Vega hides labels that
      // would collide by setting opacity 0, and rotated axis labels are compared along their angle
      const boxes = [...svg.querySelectorAll('text')]
        .filter((t) => (t.textContent ?? '').trim() !== '' && getComputedStyle(t).opacity !== '0' && t.getAttribute('opacity') !== '0')
        .map((t) => {
          const m = t.getScreenCTM()!;
          const angle = Math.atan2(m.b, m.a);
          const bb = t.getBBox();
          const cos = Math.cos(-angle);
          const sin = Math.sin(-angle);
          const pts = [
            [bb.x, bb.y],
            [bb.x + bb.width, bb.y + bb.height],
          ].map(([x, y]) => {
            const sx = m.a * x + m.c * y + m.e;
            const sy = m.b * x + m.d * y + m.f;
            return [cos * sx - sin * sy, sin * sx + cos * sy];
          });
          const b = {
            left: Math.min(pts[0][0], pts[1][0]),
            right: Math.max(pts[0][0], pts[1][0]),
            top: Math.min(pts[0][1], pts[1][1]),
            bottom: Math.max(pts[0][1], pts[1][1]),
          };
          return { t: t.textContent!.trim(), b, angle, size: bb.width * bb.height };
        })
        .filter((x) => x.size > 0);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          if (Math.abs(boxes[i].angle - boxes[j].angle) > 0.01) continue;
          const a = boxes[i].b;
          const c = boxes[j].b;
          const w = Math.min(a.right, c.right) - Math.max(a.left, c.left);
          const h = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
          // more than a 2 px sliver both ways: the texts overlap where a reader sees them
          if (w > 2 && h > 2) out.push(`${id}: "${boxes[i].t}" over "${boxes[j].t}"`);
        }
      }
    }
    return out;
  });
  assert.deepEqual(overlaps, [], overlaps.slice(0, 10).join('\n'));
  // a table wider than its frame scrolls (the frame's overflow is auto) and nothing of the page
  // is wider than the window
  const cut = await page.$$eval('table', (tables) =>
    tables.flatMap((t) => {
      const wrap = t.parentElement!;
      const style = getComputedStyle(wrap);
      const wider = t.scrollWidth > wrap.clientWidth + 1;
      return wider && !['auto', 'scroll'].includes(style.overflowX) ? [t.id || t.querySelector('th')?.textContent || '?'] : [];
    }),
  );
  assert.deepEqual(cut, [], `tables cut: ${cut.join(', ')}`);
  // a caption stays inside its table's frame (not centred on the whole scrolled width), and the
  // gate grid's 13 step columns all fit a 1,400 px window: a reviewer sees every step without scrolling
  const frames = await page.$$eval('.tablewrap', (wraps) =>
    wraps.map((w) => {
      const t = w.querySelector('table')!;
      const c = t.querySelector('caption');
      const wr = w.getBoundingClientRect();
      const cr = c?.getBoundingClientRect();
      return {
        id: t.id,
        captionOut: cr ? cr.left < wr.left - 1 || cr.right > wr.right + 1 : false,
        wider: t.scrollWidth > w.clientWidth + 1,
      };
    }),
  );
  assert.ok(
    frames.some((f) => f.id === 'gate-grid'),
    'the gate grid is on the page',
  );
  assert.deepEqual(
    frames.filter((f) => f.captionOut).map((f) => f.id),
    [],
    'captions outside their frame',
  );
  assert.equal(frames.find((f) => f.id === 'gate-grid')!.wider, false, 'the gate grid fits 1,400 px');
  const pageWidth = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, win: window.innerWidth }));
  assert.ok(pageWidth.doc <= pageWidth.win, `the page is ${pageWidth.doc} px wide in a ${pageWidth.win} px window`);
});

test('the page draws report text in a chart as text, and a chart that cannot be drawn says so while the others draw', {
  skip: SKIP,
}, async () => {
  const note = `broken-${process.pid}-${Date.now()}`;
  const entries = () =>
    readdirSync(join(CACHE_ROOT, 'charts'))
      .map((n) => join(CACHE_ROOT, 'charts', n))
      .filter((f) => readFileSync(f, 'utf8').includes(note));
  try {
    // a compiled chart the page cannot draw: its cached compile planted with a data set that reads one that does not exist
    await compiledChart('recall_curves', note);
    const [file] = entries();
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { vega: { data: unknown[] } };
    entry.vega.data.push({ name: 'planted', source: 'mcpgauge-no-such-data' });
    writeFileSync(file, JSON.stringify(entry));
    forgetCompiledCharts();
    const rows = [
      { series: HOSTILE_TEXT, k: 1, recall: 0.5 },
      { series: HOSTILE_TEXT, k: 3, recall: 0.75 },
    ];
    const section = {
      id: 'c',
      title: 'Charts',
      provenanceKeys: [],
      schemaRefs: [],
      build: () => ({
        blocks: [
          {
            kind: 'charts' as const,
            charts: [
              { kind: 'chart' as const, spec: 'recall_curves', rows, note, empty: 'none' },
              { kind: 'chart' as const, spec: 'recall_curves', rows, empty: 'none' },
            ],
          },
        ],
      }),
    };
    const dir = mkdtempSync(join(work, 'broken-'));
    const path = join(dir, 'page.html');
    writeFileSync(
      path,
      await renderPage({ title: 't', generator: 'test', header: html`<h1>t</h1>`, footer: 'f', sections: [sectionFor(section, {})] }),
    );
    const { page, foreign, consoleErrors, pageErrors } = await open(path);
    await revealCharts(page);
    const state = await page.$$eval('figure.chart', (fs) => fs.map((f) => ({ cls: f.className, text: f.textContent ?? '' })));
    assert.equal(state.length, 2);
    assert.match(state[0].cls, /\bfailed\b/);
    assert.match(state[0].text, /This chart could not be drawn \(.*mcpgauge-no-such-data.*\); its numbers are in the tables\./);
    assert.match(state[1].cls, /\bdrawn\b/);
    // the series name, report text, is drawn as the legend's text: never markup, never run
    assert.ok(state[1].text.includes('<img src=x onerror='), state[1].text.slice(0, 300));
    assert.equal(await page.locator('figure img, figure script:not(.chart-data)').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual(foreign, []);
    assert.deepEqual(pageErrors, []);
    assert.equal(consoleErrors.length, 1, consoleErrors.join('\n'));
    assert.match(consoleErrors[0], /^error: chart recall_curves: /);
    await page.close();
  } finally {
    for (const f of entries()) rmSync(f, { force: true });
    forgetCompiledCharts();
  }
});

test('every chart template draws in the page: the systems and scale charts of a side-by-side report too', { skip: SKIP }, async () => {
  const dir = join(work, 'systems');
  const written = await writeReport(buildSystemsSample(), dir, REPORT_SECTIONS);
  const { page, foreign, consoleErrors, pageErrors } = await open(written.dashboard ?? 'no dashboard written');
  const marks = await chartMarks(page);
  const drawn = Object.keys(marks);
  for (const id of [SYSTEMS_CHART, SCALE_CHART, ...CHART_IDS]) assert.ok(drawn.includes(id), `${id} is on the page (${drawn.join(', ')})`);
  // with the main sample's charts (the test above), every template in reports-template/charts
  assert.deepEqual([...new Set([...drawn, ...CHART_IDS, ...LIVE_CHART_IDS])].sort(), templateChartIds());
  for (const [id, n] of Object.entries(marks)) assert.ok(n === 'nodata' || n > 0, `chart ${id} has no drawn marks (${n})`);
  assert.equal(await page.locator('figure.chart.failed').count(), 0);
  assert.deepEqual(foreign, []);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});
