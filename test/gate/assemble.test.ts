/** Fail-closed assembly and the written outputs (summary table, JUnit). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble, type ExpectedCell } from '../../pipeline/gate/assemble.ts';
import { renderJunit, renderSummary, validateGateReport, type GateReport } from '../../pipeline/gate/report.ts';
import type { CellResult } from '../../pipeline/gate/types.ts';

const exp = (id: string, required = true): ExpectedCell => ({ id, required, transport: id.split('/')[0], era: id.split('/')[1] });
const res = (id: string, status: CellResult['status'], reason = 'r'): CellResult => ({
  id,
  transport: id.split('/')[0],
  era: id.split('/')[1],
  required: true,
  status,
  reason,
  attempts: 1,
  duration_ms: 5,
  metrics: {},
  logs: [],
  steps: [
    {
      name: 'ready',
      order: 1,
      status: status === 'flaky' ? 'flaky' : status === 'fail' ? 'fail' : status,
      reason,
      duration_ms: 5,
      evidence: {},
    },
  ],
});

test('fail closed: missing, duplicated and unknown results are red; optional cells only advise', () => {
  const a = assemble(
    [exp('stdio/a'), exp('sse/b'), exp('http/c'), exp('docker/d', false)],
    [res('stdio/a', 'pass'), res('sse/b', 'pass'), res('sse/b', 'pass'), res('zzz/e', 'pass'), res('docker/d', 'fail')],
    false,
  );
  assert.equal(a.verdict, 'fail');
  const by = Object.fromEntries(a.cells.map((c) => [c.id, c]));
  assert.equal(by['stdio/a'].status, 'pass');
  assert.match(by['sse/b'].reason, /2 results for one cell/);
  assert.match(by['http/c'].reason, /ended without a result/);
  assert.match(by['zzz/e'].reason, /unknown cell/);
  assert.deepEqual(a.failures.map((f) => f.split(':')[0]).sort(), ['http/c', 'sse/b', 'zzz/e']);
  assert.equal(a.advisories.length, 1);
  assert.equal(assemble([exp('stdio/a')], [res('stdio/a', 'pass')], false).verdict, 'pass');
});

test('flaky counts as green only with --allow-flaky; a skipped required cell is red', () => {
  assert.equal(assemble([exp('stdio/a')], [res('stdio/a', 'flaky')], false).verdict, 'fail');
  assert.equal(assemble([exp('stdio/a')], [res('stdio/a', 'flaky')], true).verdict, 'pass');
  assert.equal(assemble([exp('docker/d')], [res('docker/d', 'skipped')], true).verdict, 'fail');
  assert.equal(assemble([exp('docker/d', false)], [res('docker/d', 'skipped')], true).verdict, 'pass');
});

test('report schema, summary and JUnit reflect the cells', () => {
  const a = assemble([exp('stdio/a'), exp('sse/b')], [res('stdio/a', 'pass'), res('sse/b', 'fail', 'boom <&> "x"')], false);
  const r: GateReport = {
    schema_version: 1,
    tool: 'mcpgauge gate',
    generated_at: new Date().toISOString(),
    verdict: a.verdict,
    exit_code: 1,
    proxy: { description: 'p' },
    config: { file: 'c' },
    options: { jobs: 1, allow_flaky: false, cells: ['stdio/a', 'sse/b'], baseline: null, client_protocol: 'legacy', retries: 0 },
    steps: [{ order: 1, name: 'ready', title: 't', optional: false }],
    cells: a.cells,
    counts: { pass: 1, fail: 1, flaky: 0, skipped: 0 },
    failures: a.failures,
    advisories: a.advisories,
    timing: { total_ms: 10, provenance: 'measured' },
  };
  assert.deepEqual(validateGateReport(r), []);
  assert.ok(validateGateReport({ ...r, verdict: 'maybe' }).length > 0, 'the schema rejects a bad verdict');
  const md = renderSummary(r);
  assert.match(md, /# mcpgauge release gate: ❌ FAIL/);
  assert.match(md, /\| sse\/b \| yes \| ❌ fail \|/);
  const xml = renderJunit(r);
  assert.equal((xml.match(/<testcase /g) ?? []).length, 2);
  assert.match(xml, /<failure message="boom &lt;&amp;&gt; &quot;x&quot;"/);
  assert.match(xml, /tests="2" failures="1"/);
});
