/** The gate's cell × step grid in the dashboard, rendered next to a bench report. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderDashboard } from '../../pipeline/report/dashboard.ts';
import { gateSectionInput } from '../../pipeline/gate/section.ts';
import { REPORT_SECTIONS } from '../../pipeline/sections.ts';
import { validateGateReport, type GateReport } from '../../pipeline/gate/report.ts';
import { isScored } from '../../pipeline/report/types.ts';
import { buildSampleReport, HOSTILE_TEXT, SAMPLE_QUERY_TABLE_PATH } from './sample.ts';

function gateReport(): GateReport {
  const step = (name: string, order: number, status: any, reason = 'ok') => ({ name, order, status, reason, duration_ms: 3, evidence: {} });
  return {
    schema_version: 1,
    tool: 'mcpgauge gate',
    generated_at: '2026-01-01T00:00:00.000Z',
    verdict: 'fail',
    exit_code: 1,
    proxy: { description: 'reference proxy', style: 'discovery' },
    config: { file: 'gate.config.json' },
    options: {
      jobs: 2,
      allow_flaky: false,
      cells: ['stdio/2025-11-25', 'sse/2025-11-25'],
      baseline: null,
      client_protocol: 'legacy',
      retries: 1,
    },
    steps: [
      { order: 1, name: 'ready', title: 'ready', optional: false },
      { order: 2, name: 'crash', title: 'crash', optional: false },
    ],
    cells: [
      {
        id: 'stdio/2025-11-25',
        transport: 'stdio',
        era: '2025-11-25',
        required: true,
        status: 'pass',
        reason: 'ok',
        attempts: 1,
        duration_ms: 9000,
        steps: [step('ready', 1, 'pass'), step('crash', 2, 'pass')],
        metrics: {},
        logs: [],
      },
      {
        id: 'sse/2025-11-25',
        transport: 'sse',
        era: '2025-11-25',
        required: true,
        status: 'fail',
        reason: HOSTILE_TEXT,
        attempts: 2,
        duration_ms: 7000,
        steps: [step('ready', 1, 'pass'), step('crash', 2, 'fail', HOSTILE_TEXT)],
        metrics: {},
        logs: [],
      },
    ],
    counts: { pass: 1, fail: 1, flaky: 0, skipped: 0 },
    failures: ['sse/2025-11-25: crash'],
    advisories: [],
    timing: { total_ms: 12000, provenance: 'measured' },
  };
}

test('bench + gate: the grid shows every cell and step coloured by status, text escaped; bench alone has no grid', async () => {
  const g = gateReport();
  assert.deepEqual(validateGateReport(g), []);
  const page = await renderDashboard(buildSampleReport(), REPORT_SECTIONS, [gateSectionInput(g)]);
  const grid = page.slice(page.indexOf('id="gate-grid"'));
  assert.ok(page.includes('Release gate'), 'section title');
  assert.ok(grid.includes('stdio/2025-11-25') && grid.includes('sse/2025-11-25'));
  assert.equal((grid.match(/class="gate-st"/g) ?? []).length, 2 * 3, '2 cells x (status + 2 steps)');
  assert.match(grid, /background:#c62828;color:#fff[^>]*>fail</);
  assert.match(grid, /background:#1a7f37;color:#fff[^>]*>pass</);
  assert.ok(!page.includes(HOSTILE_TEXT), 'a reason is escaped, never markup');
  // the tiles say the console's counts (countsText) and, for a green gate with a red optional cell, the console's verdict word
  assert.ok(page.includes('>1 pass, 0 flaky, 1 fail, 0 skipped<'), 'the counts tile says what the console says');
  const optionalRed = await renderDashboard(buildSampleReport(), REPORT_SECTIONS, [
    gateSectionInput({
      ...g,
      verdict: 'pass',
      exit_code: 0,
      cells: g.cells.map((c) => (c.status === 'fail' ? { ...c, required: false } : c)),
    }),
  ]);
  assert.ok(optionalRed.includes('1 optional cell red: sse/2025-11-25; exit code 0'), 'not a bare PASS');
  const alone = await renderDashboard(buildSampleReport(), REPORT_SECTIONS);
  assert.ok(!alone.includes('id="gate-grid"'), 'no grid (the page style names #gate-grid)');
});

test('mcpgauge report --results DIR picks up the bench and the gate report of the same folder, the per-query rows from the Parquet beside report.json', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-report-'));
  try {
    mkdirSync(join(dir, 'discovery', 'tables'), { recursive: true });
    mkdirSync(join(dir, 'gate'));
    // report.json as written (no per-query rows) + its tables/per_query.parquet
    writeFileSync(join(dir, 'discovery', 'report.json'), JSON.stringify(buildSampleReport({ rows: false })));
    copyFileSync(SAMPLE_QUERY_TABLE_PATH, join(dir, 'discovery', 'tables', 'per_query.parquet'));
    writeFileSync(join(dir, 'gate', 'gate-report.json'), JSON.stringify(gateReport()));
    const bin = resolve(import.meta.dirname, '..', '..', 'bin', 'mcpgauge.mjs');
    const out = await new Promise<string>((done, fail) =>
      execFile(process.execPath, [bin, 'report', '--results', dir], (e, so, se) => (e ? fail(new Error(se)) : done(so))),
    );
    assert.match(out, /bench \+ gate fail/);
    const page = readFileSync(join(dir, 'dashboard.html'), 'utf8');
    assert.ok(page.includes('id="gate-grid"'));
    // the same page the bench drew: its per-query rows came from the table
    assert.equal(
      page.slice(page.indexOf('id="retrieval"')),
      (await renderDashboard(buildSampleReport(), REPORT_SECTIONS, [gateSectionInput(gateReport())])).slice(page.indexOf('id="retrieval"')),
    );
    const q = buildSampleReport().retrieval.find(isScored)!.per_query![0];
    assert.ok(page.includes(`>${q.query_id}<`), 'a per-query row is on the page');
    // without the table: exit 2, the missing file named, nothing written
    rmSync(join(dir, 'discovery', 'tables', 'per_query.parquet'));
    rmSync(join(dir, 'dashboard.html'));
    const missing = await new Promise<{ code: number | null; se: string }>((done) =>
      execFile(process.execPath, [bin, 'report', '--results', dir], (e, _so, se) =>
        done({ code: e ? ((e as { code?: number }).code ?? 1) : 0, se }),
      ),
    );
    assert.equal(missing.code, 2);
    assert.match(missing.se, /tables\/per_query\.parquet: cannot read the per-query table of .*report\.json \(ENOENT\)/);
    assert.ok(!existsSync(join(dir, 'dashboard.html')));
    copyFileSync(SAMPLE_QUERY_TABLE_PATH, join(dir, 'discovery', 'tables', 'per_query.parquet'));
    writeFileSync(join(dir, 'gate', 'gate-report.json'), JSON.stringify({ ...gateReport(), verdict: 'maybe' }));
    const err = await new Promise<string>((done) =>
      execFile(process.execPath, [bin, 'report', '--results', dir], (_e, _so, se) => done(se)),
    );
    assert.match(err, /gate-report\.json: not a valid gate report/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the yardstick table: the fixture graded once per run, one row per wire and revision, failing checks named', async () => {
  const g: GateReport = {
    ...gateReport(),
    fixture_compliance: {
      status: 'fail',
      reason: 'the fixture itself grades below B: stdio/2025-11-25: C (66)',
      min_grade: 'B',
      not_probed: ['sse (legacy HTTP+SSE: not probed by the compliance prober)'],
      duration_ms: 8000,
      provenance: 'measured',
      runs: [
        { wire: 'stdio', revision: '2025-11-25', grade: 'C', score: 66, coverage: 0.9, evaluated: 40, failing: ['lifecycle-ping [MUST]'] },
        { wire: 'http-stateless', revision: '2026-07-28', grade: 'A', score: 100, coverage: 1, evaluated: 61, failing: [] },
      ],
    },
  };
  assert.deepEqual(validateGateReport(g), []);
  const page = await renderDashboard(buildSampleReport(), REPORT_SECTIONS, [gateSectionInput(g)]);
  const t = page.slice(page.indexOf('id="gate-yardstick"'));
  assert.ok(page.includes('id="gate-yardstick"'));
  assert.ok(t.includes('lifecycle-ping [MUST]') && t.includes('http-stateless') && t.includes('not probed by the compliance prober'));
  assert.ok(
    !(await renderDashboard(buildSampleReport(), REPORT_SECTIONS, [gateSectionInput(gateReport())])).includes('gate-yardstick'),
    'no block without the run',
  );
});
