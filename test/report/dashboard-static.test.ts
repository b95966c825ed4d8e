/** Dashboard HTML checks that need no browser: escaping, self-containment, CSP, chart wiring. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chartFigure, chartIdsFor, esc, renderDashboard, templateChartIds } from '../../pipeline/report/dashboard.ts';
import { CHARTS } from '../../pipeline/report/sections/charts.ts';
import { REPORT_SECTIONS } from '../../pipeline/sections.ts';
import { html, toHtml } from '../../pipeline/report/html.ts';
import { chartRuntime, pageScript, renderPage } from '../../pipeline/report/render.ts';
import { PACKED_ROWS_TYPE, unpackRows } from '../../pipeline/report/pack.ts';
import { sectionFor, type ReportSection } from '../../pipeline/report/details.ts';
import { buildSampleReport, buildSystemsSample, HOSTILE_TEXT, withVariants } from './sample.ts';
import { SYSTEMS_CHART } from '../../pipeline/report/sections/systems.ts';
import { SCALE_CHART } from '../../pipeline/scale/section.ts';

const CHART_IDS = CHARTS.filter((c) => !c.live).map((c) => c.spec);
const LIVE_CHART_IDS = CHARTS.filter((c) => c.live).map((c) => c.spec);

test('esc escapes every HTML-significant character', () => {
  assert.equal(esc(`<a href="x" onclick='y'>&</a>`), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  assert.equal(esc(42), '42');
});

test('the html tag escapes interpolations unless already safe', () => {
  const inner = html`<b>${HOSTILE_TEXT}</b>`;
  assert.equal(inner.value, `<b>${esc(HOSTILE_TEXT)}</b>`);
  // a safe fragment is not escaped twice; arrays join; null/false render nothing
  assert.equal(html`<p>${inner}${[1, '<', null, false]}</p>`.value, `<p><b>${esc(HOSTILE_TEXT)}</b>1&lt;</p>`);
  assert.equal(toHtml('<x>').value, '&lt;x&gt;');
  // a plain object that only looks like a fragment is escaped as text
  assert.equal(html`${{ value: '<i>' } as never}`.value, '[object Object]');
});

test('every chart spec in reports-template/charts is rendered, and only those', () => {
  assert.deepEqual(templateChartIds(), [...CHART_IDS, ...LIVE_CHART_IDS, SYSTEMS_CHART, SCALE_CHART].sort());
  assert.deepEqual(chartIdsFor(buildSampleReport({ live: false })), [...CHART_IDS]);
  assert.deepEqual(chartIdsFor(buildSampleReport()), [...CHART_IDS, ...LIVE_CHART_IDS]);
});

test("the dashboard is one self-contained file: no external references, CSP with the scripts' hashes", async () => {
  const page = await renderDashboard(buildSampleReport(), REPORT_SECTIONS);
  // the markup, the inline scripts' text left out (our own two files, allowed by their hashes
  // below; the chart runtime names SVG's in-document url(#clip) references, and the CSP's
  // default-src 'none' would stop any load a script tried: test/report/dashboard.test.ts draws
  // every chart in Chromium and sees no request)
  const html = page.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');
  // no resource references of any kind: look at attribute names only (values blanked; escaped
  // text never contains a raw '<' or '"')
  // in-page links (href="#id") are the one exception: they fetch nothing, and each must name an
  // id the page has
  const inPage = [...html.matchAll(/<a href="#([A-Za-z][\w-]*)"/g)].map((m) => m[1]);
  for (const id of inPage) assert.match(html, new RegExp(`\\sid="${id}"`), `in-page link #${id} has a target`);
  const tags = html.replace(/<a href="#[A-Za-z][\w-]*"/g, '<a').replace(/"[^"]*"/g, '""');
  assert.doesNotMatch(tags, /<[a-z][^>]*\s(src|href|xlink:href|srcset|action|poster|data)\s*=/i);
  assert.doesNotMatch(html, /<link\b|<iframe\b|<object\b|<embed\b|@import|url\(/i);
  // no http(s) string in the markup; in the whole page, only SVG/XML namespace identifiers (the
  // chart runtime's), which are never fetched
  assert.deepEqual(html.match(/https?:\/\/[^\s"'<>)]+/g) ?? [], []);
  const urls = new Set(page.match(/https?:\/\/[^\s"'<>)]+/g) ?? []);
  assert.deepEqual([...urls].sort(), ['http://www.w3.org/1999/xlink', 'http://www.w3.org/2000/svg', 'http://www.w3.org/2000/xmlns/']);
  // exactly two inline scripts, the chart runtime and the page script, allowed by their sha256 in
  // the CSP (and nothing else: no eval, no other source); nothing else may run
  const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.deepEqual(scripts, [chartRuntime(), pageScript()]);
  const hashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`);
  const csp = page.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)![1];
  assert.match(csp, /^default-src 'none'; /);
  assert.ok(csp.includes(`; script-src ${hashes.join(' ')}; `), csp);
  assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline'[^;]*script|script-src[^;]*unsafe/);
  // every placeholder was filled
  assert.doesNotMatch(html, /\{\{[a-z_]+\}\}/);
});

test('hostile report text is escaped in tables, and packed in the charts and the rows drawn on demand', async () => {
  const r = withVariants();
  r.corpora[0].name = HOSTILE_TEXT;
  r.live!.errors[0].message = HOSTILE_TEXT;
  r.live!.lap.warning = HOSTILE_TEXT;
  r.live!.target.description = HOSTILE_TEXT;
  const html = await renderDashboard(r, REPORT_SECTIONS);
  assert.ok(!html.includes(HOSTILE_TEXT));
  assert.ok(!html.includes('<img'));
  assert.ok(html.includes(esc(HOSTILE_TEXT)));
  // the scripts the browser runs are our own two (the chart runtime, the page script); every other
  // <script> is a packed data block (base64: no character HTML gives a meaning to): rows drawn on
  // demand, whose hostile text is escaped like everywhere else, and each chart's spec and rows,
  // whose hostile text is data the chart runtime draws as text (test/report/dashboard.test.ts)
  assert.equal(html.match(/<script>/g)!.length, 2);
  const blocks = [...html.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)].filter((m) => m[1] !== '');
  assert.equal(blocks.length + 2, html.match(/<script/g)!.length);
  const type = PACKED_ROWS_TYPE.replace('+', '\\+');
  for (const [, attrs, body] of blocks) {
    assert.match(attrs, new RegExp(`^ type="${type}" (id="[\\w-]+-rows"|class="chart-data")$`));
    assert.match(body, /^[A-Za-z0-9+/=]*$/);
  }
  const rows = blocks.filter((m) => m[1].includes('-rows"'));
  const charts = blocks.filter((m) => m[1].includes('chart-data'));
  assert.ok(rows.length > 0 && charts.length > 0);
  const packed = rows.map((m) => JSON.stringify(unpackRows(m[2]))).join('');
  assert.ok(!packed.includes(JSON.stringify(HOSTILE_TEXT).slice(1, -1)));
  // a chart's rows are data in its packed block: hostile text there is neither markup nor part of
  // the spec (the chart runtime draws it as text: test/report/dashboard.test.ts)
  const rowsOf = [
    { series: HOSTILE_TEXT, k: 1, recall: 0.5 },
    { series: HOSTILE_TEXT, k: 3, recall: 0.75 },
  ];
  const fig = (await chartFigure({ kind: 'chart', spec: 'recall_curves', rows: rowsOf, note: HOSTILE_TEXT, empty: 'none' })).value;
  assert.ok(!fig.includes(HOSTILE_TEXT) && !fig.includes('<img'));
  const m = /<script type="[^"]+" class="chart-data">([A-Za-z0-9+/=]+)<\/script>/.exec(fig)!;
  const drawn = unpackRows(m[1]) as { spec: object; rows: object[] };
  assert.deepEqual(drawn.rows, rowsOf);
  // (the note goes into the subtitle, a string Vega draws as text, never an expression)
  assert.ok(JSON.stringify(drawn.spec).includes(JSON.stringify(HOSTILE_TEXT).slice(1, -1)));
});

test('a page without charts carries no chart runtime, and its CSP allows the page script only', async () => {
  const page = await renderPage({
    title: 't',
    header: html`<h1>t</h1>`,
    generator: 'test',
    footer: 'f',
    sections: [
      sectionFor(
        {
          id: 'x',
          title: 'X',
          provenanceKeys: [],
          schemaRefs: [],
          build: () => ({ blocks: [{ kind: 'paragraph', text: 'no chart here' }] }),
        } as ReportSection<unknown>,
        {},
      ),
    ],
  });
  const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.deepEqual(scripts, [pageScript()]);
  const hash = createHash('sha256').update(pageScript(), 'utf8').digest('base64');
  assert.ok(page.includes(`script-src 'sha256-${hash}';`));
});

test('provenance badges, weak-query shading and the no-break-even row are in the HTML', async () => {
  const r = buildSampleReport();
  const be = r.economics.break_even[0];
  Object.assign(be, {
    no_break_even: true,
    break_even_calls: null,
    reason: 'full menu (900) is not larger than the discovery menu (1200)',
  });
  r.meta.notes = ['Savings are relative to baseline_json on the same corpus and tokenizer.'];
  const html = await renderDashboard(r, REPORT_SECTIONS);
  for (const p of ['measured', 'computed', 'estimated']) assert.ok(html.includes(`<span class="badge ${p}"`), p);
  assert.ok(
    html.includes(
      '<section id="notes"><h2>Methodology notes</h2>\n<ul><li>Savings are relative to baseline_json on the same corpus and tokenizer.</li></ul>',
    ),
  );
  assert.match(
    html,
    /<span class="bad">no break-even<\/span><div class="meta">full menu \(900\) is not larger than the discovery menu \(1200\)<\/div>/,
  );
  // weak rows: sample has queries whose gold tool is missing from the top 5
  // rows drawn with the page, and rows drawn on demand (their packed data)
  const packedWeak = [...html.matchAll(/<script type="[^"]+" id="[\w-]+-rows">([^<]*)<\/script>/g)]
    .flatMap((m) => (unpackRows(m[1]) as { rows: string[][] }).rows)
    .filter((row) => row[0] === 'weak').length;
  const weak = (html.match(/<tr class="weak">/g) ?? []).length + packedWeak;
  const expectedWeak =
    r.retrieval
      .flatMap((x) => ('per_query' in x ? x.per_query! : []))
      .filter((q) => !q.error && (q.first_relevant_rank === null || q.first_relevant_rank > 5)).length +
    r.live!.retrieval.flatMap((x) => x.per_query!).filter((q) => !q.error && (q.first_relevant_rank === null || q.first_relevant_rank > 5))
      .length;
  assert.ok(expectedWeak > 0);
  assert.equal(weak, expectedWeak);
});

test('every listed section has a unique id and schema parts that resolve in the report schema', async () => {
  const { readFileSync } = await import('node:fs');
  const { REPORT_SCHEMA_PATH } = await import('../../pipeline/report/validate.ts');
  const schema = JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8'));
  const ids = REPORT_SECTIONS.map((s) => s.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const s of REPORT_SECTIONS) {
    assert.ok(s.schemaRefs.length > 0, s.id);
    for (const ref of s.schemaRefs) {
      const node = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((o: any, k) => o?.[k], schema);
      assert.ok(node && typeof node === 'object', `${s.id}: ${ref} does not resolve`);
    }
  }
  // every section with data renders into the page under its id
  const page =
    (await renderDashboard(buildSampleReport(), REPORT_SECTIONS)) + (await renderDashboard(buildSystemsSample(), REPORT_SECTIONS));
  for (const s of REPORT_SECTIONS) if (s.frame !== 'bare') assert.ok(page.includes(`<section id="${s.id}">`), s.id);
});

test('the renderer draws sections reading another document next to the bench report', async () => {
  interface Other {
    provenance: Record<string, 'measured'>;
    cells: { name: string; ok: boolean }[];
  }
  const other: ReportSection<Other> = {
    id: 'other-doc',
    title: 'Another document',
    provenanceKeys: ['cells'],
    schemaRefs: ['#/none'],
    build: (d) => ({
      blocks: [
        {
          kind: 'table',
          id: 'other-table',
          columns: [
            { key: 'name', label: 'Name', type: 'ident' },
            { key: 'ok', label: 'OK', type: 'text' },
          ],
          rows: d.cells,
        },
      ],
    }),
  };
  const doc: Other = { provenance: { cells: 'measured' }, cells: [{ name: HOSTILE_TEXT, ok: true }] };
  const report = buildSampleReport({ live: false });
  const page = await renderPage({
    title: 'together',
    generator: 'test',
    header: html`<header>h</header>`,
    footer: 'f',
    sections: [
      sectionFor(REPORT_SECTIONS.find((s) => s.id === 'arms')!, report, report.provenance),
      sectionFor(other, doc, doc.provenance),
    ],
  });
  assert.ok(page.includes('<section id="arms">'));
  assert.ok(page.includes('<section id="other-doc"><h2>Another document<span class="badge measured"'));
  assert.ok(page.includes(`<td class="nw" data-v="${esc(HOSTILE_TEXT)}">${esc(HOSTILE_TEXT)}</td><td data-v="true">true</td>`));
  assert.ok(!page.includes(HOSTILE_TEXT));
});
