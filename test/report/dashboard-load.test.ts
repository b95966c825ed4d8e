/**
 * The default dashboard opens at once (issue 31): the dashboard of the committed sample report
 * (test/data/report.json, a real run of the default profile plus the live stage; the one
 * `make screenshot` draws) is at most 1.5 MB and holds at most 5,000 elements once loaded in
 * headless Debian Chromium, while every row is still reachable: a collapsed per-query table shows
 * all its rows when opened, a paged table all its rows after "Show all", and rows drawn on demand
 * are the very cells the renderer draws with the page.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { CHROMIUM_SKIP, launchChromium } from './browser.ts';
import { renderDashboard } from '../../pipeline/report/dashboard.ts';
import { renderPage, PAGE_ROWS } from '../../pipeline/report/render.ts';
import { html } from '../../pipeline/report/html.ts';
import { sectionFor, type ReportSection, type TableDetails } from '../../pipeline/report/details.ts';
import { capRows, livePerQueryRows, offlinePerQueryRows, perQueryTable } from '../../pipeline/report/sections/common.ts';
import { REPORT_SECTIONS } from '../../pipeline/sections.ts';
import { HOSTILE_TEXT, buildSampleReport } from './sample.ts';

const SKIP = CHROMIUM_SKIP;
const MAX_ELEMENTS = 5000;
const MAX_BYTES = 1.5e6;

let work = '';
let context: BrowserContext | undefined;

before(async () => {
  if (SKIP) return;
  work = mkdtempSync(join(tmpdir(), 'mcpgauge-dash-load-'));
  context = await launchChromium(work, { width: 1350, height: 940 });
});

after(async () => {
  await context?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function open(file: string): Promise<{ page: Page; errors: string[] }> {
  const url = pathToFileURL(file).href;
  const page = await context!.newPage();
  const errors: string[] = [];
  await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors };
}

const rowCount = (page: Page, id: string) => page.$$eval(`#${id} tbody tr`, (rows) => rows.length);

test('the default dashboard: <= 1.5 MB and <= 5,000 elements at load, every per-query row reachable', { skip: SKIP }, async () => {
  const report = buildSampleReport();
  const file = join(work, 'dashboard.html');
  writeFileSync(file, await renderDashboard(report, REPORT_SECTIONS));
  const bytes = statSync(file).size;
  assert.ok(
    bytes <= MAX_BYTES,
    `the default dashboard is ${bytes.toLocaleString('en-US')} bytes (budget ${MAX_BYTES.toLocaleString('en-US')})`,
  );

  const { page, errors } = await open(file);
  // the first screen's charts are put in when they come into view: let that happen, then count
  await page.waitForTimeout(300);
  const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
  assert.ok(
    elements <= MAX_ELEMENTS,
    `the default dashboard holds ${elements.toLocaleString('en-US')} elements at load (budget ${MAX_ELEMENTS.toLocaleString('en-US')})`,
  );

  // every per-query row the page lists is reachable: open the collapsed table and see them all
  const offline = capRows(offlinePerQueryRows(report));
  const live = capRows(livePerQueryRows(report));
  assert.ok(offline.length > PAGE_ROWS && live.length > PAGE_ROWS, 'the sample has per-query tables longer than a page');
  for (const [id, rows] of [
    ['per-query-table', offline],
    ['live-per-query', live],
  ] as const) {
    assert.equal(await rowCount(page, id), 0, `${id} draws no row before it is opened`);
    await page.locator(`details:has(#${id}) > summary`).click();
    await page.waitForFunction((t) => !document.querySelector(`#${t}[data-rows]`), id);
    assert.equal(await rowCount(page, id), rows.length, `${id}: every row once opened`);
    // the last row is there, with its query text
    const last = rows[rows.length - 1].q;
    const texts = await page.$$eval(`#${id} tbody tr`, (trs) => trs.map((tr) => tr.textContent ?? ''));
    assert.ok(
      texts.some((t) => t.includes(last.query_id) && t.includes(last.query)),
      `${id}: the last row (${last.query_id})`,
    );
  }

  // a paged table shows its first rows with the page, every row after "Show all"
  assert.equal(await rowCount(page, 'retrieval-table'), PAGE_ROWS);
  assert.ok(report.retrieval.length > PAGE_ROWS);
  await page.locator('button[data-more="retrieval-table"]').click();
  await page.waitForFunction(() => !document.querySelector('#retrieval-table[data-rows]'));
  assert.equal(await rowCount(page, 'retrieval-table'), report.retrieval.length);
  assert.equal(await page.locator('button[data-more="retrieval-table"]').count(), 0);

  // sorting a paged table sorts every row: a header click draws the rest first
  const total = await page.$eval('#retrievers-table', (t) =>
    Number(
      /Show all ([\d,]+) rows/
        .exec(t.closest('section')!.querySelector('button[data-more="retrievers-table"]')!.textContent!)![1]
        .replace(/,/g, ''),
    ),
  );
  assert.ok(total > PAGE_ROWS);
  const th = page.locator('#retrievers-table thead th').last();
  await th.click();
  await page.waitForFunction(() => !document.querySelector('#retrievers-table[data-rows]'));
  assert.equal(await th.getAttribute('aria-sort'), 'ascending');
  assert.equal(await rowCount(page, 'retrievers-table'), total);
  const keys = await page.$$eval('#retrievers-table tbody tr', (trs) =>
    trs.map((tr) => (tr as HTMLTableRowElement).cells[(tr as HTMLTableRowElement).cells.length - 1]?.getAttribute('data-v') ?? ''),
  );
  const nums = keys.filter((k) => k !== '' && !Number.isNaN(Number(k))).map(Number);
  assert.ok(nums.length > PAGE_ROWS);
  assert.deepEqual(
    nums,
    [...nums].sort((a, b) => a - b),
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('rows drawn on demand are the cells the renderer draws with the page (and stay escaped)', { skip: SKIP }, async () => {
  const report = buildSampleReport();
  const rows = capRows(offlinePerQueryRows(report)).slice(0, 60);
  rows[3] = { ...rows[3], q: { ...rows[3].q, query: HOSTILE_TEXT, error: HOSTILE_TEXT } };
  const table = perQueryTable(rows, 'pq');
  // the same table twice: drawn on demand (it has an id, inside a collapsed block) and with the
  // page (no id: the renderer draws every row of a table it cannot address)
  const section: ReportSection<TableDetails> = {
    id: 'twice',
    title: 'twice',
    provenanceKeys: [],
    schemaRefs: ['#/none'],
    build: (t) => ({
      blocks: [
        { kind: 'details', summary: 'on demand', blocks: [t] },
        { kind: 'table', columns: t.columns, rows: t.rows, rowClasses: t.rowClasses },
      ],
    }),
  };
  const file = join(work, 'twice.html');
  writeFileSync(
    file,
    await renderPage({
      title: 't',
      generator: 'test',
      header: html`<header>h</header>`,
      footer: 'f',
      sections: [sectionFor(section, table)],
    }),
  );
  const { page, errors } = await open(file);
  await page.locator('details > summary').click();
  await page.waitForFunction(() => !document.querySelector('#pq[data-rows]'));
  // row by row (the page's own rows sit on separate lines of the file; that whitespace is no cell)
  const [onDemand, eager] = await page.$$eval('table tbody', (bodies) =>
    bodies.map((b) => [...(b as HTMLTableSectionElement).rows].map((r) => r.outerHTML)),
  );
  assert.equal(onDemand.length, rows.length);
  assert.deepEqual(onDemand, eager);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.ok((await page.locator('#pq').innerText()).includes(HOSTILE_TEXT));
  assert.deepEqual(errors, []);
  await page.close();
});
