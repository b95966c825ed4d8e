/**
 * summary.md for a PR reviewer (issue 30), from a real run: npm mcp-proxy gated with its preset
 * and the shipped config's compliance block on, both stdio cells plus a cell it cannot front.
 * Asserted: the compliance line says letter, score, cap and the failing MUSTs together, one line
 * per revision and wire in the cell that measured it (the proxy's own endpoint: http); no check
 * of the other revision shows in a cell; every ⛔ ⏭️ ➖ mark has its reason; the counts are the
 * console's. Plus, from a small assembled report: a green gate with a red optional cell does not
 * headline a bare PASS.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeGateExample, runGateCli } from './helpers.ts';
import { assemble, countsText } from '../../pipeline/gate/assemble.ts';
import { renderSummary, STATUS_MARK, validateGateReport, type GateReport } from '../../pipeline/gate/report.ts';
import type { CellResult, StepStatus } from '../../pipeline/gate/types.ts';

const fast = (cfg: any) => {
  cfg.timeouts.recovery_ms = 8000;
};

/** Every ⛔ / ⏭️ / ➖ mark of the grid has a line with its reason, in its cell's block (or said once for every cell that ran). */
function assertEveryMarkExplained(md: string, r: GateReport): void {
  const section = md.slice(md.indexOf('## Not green, cell by cell'));
  assert.ok(md.includes('## Not green, cell by cell'), md);
  const blocks = new Map<string, string>();
  const parts = section.split(/\n- /);
  for (const p of parts) {
    const m = /^\S+ \*\*([^*]+)\*\*/.exec(p);
    if (m) blocks.set(m[1]!, p);
  }
  const everywhere = parts.find((p) => p.startsWith('In every cell that ran')) ?? '';
  const want: Partial<Record<StepStatus, RegExp>> = {
    blocked: /: blocked by |: the proxy exited/,
    skipped: /: skipped: \S/,
    not_applicable: /: not applicable: \S/,
  };
  for (const c of r.cells) {
    if (c.status === 'not_applicable' || c.status === 'skipped') {
      assert.match(
        blocks.get(c.id) ?? '',
        new RegExp(`^${STATUS_MARK[c.status]} \\*\\*${c.id}\\*\\*: (not applicable|skipped): \\S`),
        `${c.id} says why it did not run`,
      );
      continue;
    }
    for (const st of c.steps) {
      const re = want[st.status];
      if (!re) continue;
      const line = [blocks.get(c.id) ?? '', everywhere]
        .join('\n')
        .split('\n')
        .find((l) => l.includes(`${STATUS_MARK[st.status]} step ${st.order} ${st.name}:`));
      assert.ok(line, `${c.id}: the ${STATUS_MARK[st.status]} of step ${st.name} has a line\n${section}`);
      assert.match(line!, re, `${c.id} ${st.name}: ${line}`);
    }
  }
}

test("summary.md from a real mcp-proxy run: compliance per revision in its own cell with letter, score, cap and MUSTs; every mark explained; the console's counts", async () => {
  const r = await runGateCli(
    [
      ...readmeGateExample('--preset mcp-proxy'),
      '--cells',
      'stdio/2025-11-25,stdio/2026-07-28,http-stateless/2025-11-25',
      '--no-fixture-grade',
    ],
    {},
    { patch: fast },
  );
  try {
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr.slice(-1500)}`);
    const md = readFileSync(join(r.out, 'summary.md'), 'utf8');
    const report = r.report!;

    // the counts: summary.md says the console's verdict line, not-applicable cells included
    const consoleCounts = /^gate FAIL: (.*) in [\d.]+ s -> /m.exec(r.stdout)?.[1];
    assert.ok(consoleCounts, r.stdout);
    assert.match(consoleCounts!, /, 1 not applicable$/);
    assert.ok(
      md.includes(`\n${report.cells.length} cells: ${consoleCounts}.`),
      `summary.md counts = console (${consoleCounts}):\n${md.slice(0, 600)}`,
    );
    assert.match(md, /^# mcpgauge release gate: ❌ FAIL\n/);

    const table = md.slice(md.indexOf('## Compliance of the proxy'));
    assert.ok(md.includes('## Compliance of the proxy (each judged revision at or above B)'), md);
    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      const id = `stdio/${era}`;
      const other = era === '2025-11-25' ? '2026-07-28' : '2025-11-25';
      const st = report.cells.find((c) => c.id === id)!.steps.find((s) => s.name === 'compliance')!;
      const runs = st.evidence.runs as Array<{
        revision: string;
        wire: string;
        grade: string;
        score: number;
        uncapped: string;
        cap: string;
        failing_must: string[];
        failing: string[];
      }>;
      const others = (st.evidence.other_runs ?? []) as typeof runs;
      // one judged run per cell: the cell's era, reached over the proxy's own endpoint (http)
      assert.deepEqual(
        runs.map((x) => `${x.revision}/${x.wire}`),
        [`${era}/http`],
        st.reason,
      );
      const x = runs[0]!;
      assert.ok(x.failing_must.length >= 2, `mcp-proxy fails MUSTs (capped): ${st.reason}`);
      // letter, score, cap and the failing MUSTs together, in the step line of its own cell
      const cap = x.uncapped !== x.grade ? `capped at ${x.cap} from ${x.uncapped}` : `cap ${x.cap}`;
      const text = `${era} over http: ${x.grade} (score ${x.score}; ${x.failing_must.length} failing MUSTs: ${x.failing_must.slice(0, 6).join(', ')}`;
      assert.ok(st.reason.includes(text) && st.reason.includes(cap), st.reason);
      const block = md.slice(md.indexOf(`**${id}**`), md.indexOf('\n- ', md.indexOf(`**${id}**`) + 1));
      assert.ok(block.includes(`❌ step ${st.order} compliance: compliance below B: ${text}`), block);
      assert.ok(!block.includes(`${other} over`), `no grade of ${other} in ${id}:\n${block}`);
      // the table: exactly one row for the cell, its revision and wire, the cap and the MUSTs in it
      const rows = table.split('\n').filter((l) => l.startsWith(`| ${id} |`));
      assert.equal(rows.length, 1, table);
      assert.ok(
        rows[0]!.startsWith(`| ${id} | ${era} | http | ❌ ${x.grade} | ${x.score} | ${x.failing_must.length} failing MUSTs: `) &&
          rows[0]!.includes(cap),
        rows[0],
      );
      // no check repeated from the other revision: what fails only there is not in this cell
      const mine = new Set(x.failing.map((f) => f.split(' ')[0]));
      for (const o of others) {
        assert.equal(o.revision, other);
        for (const f of o.failing.map((y) => y.split(' ')[0]!).filter((f) => !mine.has(f))) {
          assert.ok(!rows[0]!.includes(f) && !block.includes(f), `${f} fails only on ${other}, yet shows in ${id}`);
        }
      }
    }
    // every mark explained: kill blocked by crash, regression skipped without a baseline, the HTTP cell not applicable
    assertEveryMarkExplained(md, report);
    assert.match(md, new RegExp(`- ⛔ step ${report.steps.find((x) => x.name === 'kill')!.order} kill: blocked by the failed crash step`));
    assert.match(
      md,
      new RegExp(`- ⏭️ step ${report.steps.find((x) => x.name === 'regression')!.order} regression: skipped: no --baseline given`),
    );
  } finally {
    r.cleanup();
  }
});

test("summary.md: a green gate with a red optional cell headlines the console's verdict word, never a bare PASS; marks of a synthetic report are explained", () => {
  const step = (name: string, order: number, status: StepStatus, reason: string) => ({
    name,
    order,
    status,
    reason,
    duration_ms: 1,
    evidence: {},
  });
  const cell = (id: string, required: boolean, status: CellResult['status'], steps: CellResult['steps']): CellResult => ({
    id,
    transport: id.split('/')[0]!,
    era: id.split('/')[1]!,
    required,
    status,
    reason: status,
    attempts: 1,
    duration_ms: 5,
    metrics: {},
    logs: [],
    steps,
  });
  const green = cell('stdio/2025-11-25', true, 'pass', [
    step('ready', 1, 'pass', 'ok'),
    step('regression', 10, 'skipped', 'no --baseline given'),
  ]);
  const red = cell('docker/2025-11-25', false, 'fail', [
    step('ready', 1, 'fail', 'boom'),
    step('regression', 10, 'blocked', 'blocked by the failed ready step'),
  ]);
  const a = assemble(
    [
      { id: green.id, required: true, transport: 'stdio', era: '2025-11-25' },
      { id: red.id, required: false, transport: 'docker', era: '2025-11-25' },
    ],
    [green, red],
    false,
  );
  assert.equal(a.verdict, 'pass');
  const r: GateReport = {
    schema_version: 1,
    tool: 'mcpgauge gate',
    generated_at: new Date().toISOString(),
    verdict: a.verdict,
    exit_code: 0,
    proxy: { description: 'p' },
    config: { file: 'c' },
    options: { jobs: 1, allow_flaky: false, cells: [green.id, red.id], baseline: null, client_protocol: 'legacy', retries: 0 },
    steps: [
      { order: 1, name: 'ready', title: 't', optional: false },
      { order: 10, name: 'regression', title: 't', optional: true },
    ],
    cells: a.cells,
    counts: { pass: 1, fail: 1, flaky: 0, skipped: 0 },
    failures: a.failures,
    advisories: a.advisories,
    timing: { total_ms: 10, provenance: 'measured' },
  };
  const md = renderSummary(r);
  assert.match(md, /^# mcpgauge release gate: ✅ PASS \(1 optional cell red: docker\/2025-11-25\)\n/);
  assert.ok(md.includes('\n2 cells: 1 pass, 0 flaky, 1 fail, 0 skipped.'), md);
  assertEveryMarkExplained(md, r);
  assert.match(
    md,
    /\*\*docker\/2025-11-25\*\*: fail \(optional, 1 attempt\)\n {2}- ❌ step 1 ready: boom\n {2}- ⛔ step 10 regression: blocked by the failed ready step/,
  );
  assert.match(md, /\*\*stdio\/2025-11-25\*\*: pass \(required, 1 attempt\)\n {2}- ⏭️ step 10 regression: skipped: no --baseline given/);
});

test('summary.md of the committed real run (samples/mcp-proxy.gate-report.json): valid report, one compliance row per cell of its own era, every mark explained', () => {
  const r = JSON.parse(readFileSync(join(import.meta.dirname, 'samples', 'mcp-proxy.gate-report.json'), 'utf8')) as GateReport;
  assert.deepEqual(validateGateReport(r), []);
  const md = renderSummary(r);
  assert.ok(md.includes(`\n8 cells: ${countsText(r.counts)}.`) && countsText(r.counts).endsWith(', 6 not applicable'), md.slice(0, 400));
  const rows = md.split('\n').filter((l) => /^\| stdio\/20\d\d-\d\d-\d\d \| 20/.test(l));
  assert.deepEqual(
    rows.map((l) => l.split(' | ').slice(0, 3).join(' | ')),
    ['| stdio/2025-11-25 | 2025-11-25 | http', '| stdio/2026-07-28 | 2026-07-28 | http'],
  );
  for (const row of rows) assert.match(row, /\| ❌ C \| \d+ \| 2 failing MUSTs: tools-list, transport-origin; capped at C from [AB] \|/);
  assertEveryMarkExplained(md, r);
});
