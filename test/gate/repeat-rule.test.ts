/** gate --repeat: the status rule of a step over N runs and how the runs combine (pipeline/gate/repeat.ts), the rendering of the rate. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineRuns, repeatStatus } from '../../pipeline/gate/repeat.ts';
import { renderJunit, renderSummary, validateGateReport, type GateReport } from '../../pipeline/gate/report.ts';
import { resolveRepeat, runDeadlineMs } from '../../pipeline/gate/matrix.ts';
import { validateGateConfig } from '../../pipeline/gate/config.ts';
import type { StepResult, StepStatus } from '../../pipeline/gate/types.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, runGateCli } from './helpers.ts';

const step = (name: string, order: number, status: StepStatus, reason = `${name} ${status}`): StepResult => ({
  name,
  order,
  status,
  reason,
  duration_ms: 10,
  evidence: { said: reason },
});

test('repeatStatus: all pass -> pass, none -> fail, some -> flaky, below min_pass_rate -> fail', () => {
  assert.equal(repeatStatus(5, 5), 'pass');
  assert.equal(repeatStatus(0, 5), 'fail');
  assert.equal(repeatStatus(4, 5), 'flaky');
  assert.equal(repeatStatus(1, 5), 'flaky');
  // the point estimate is checked: 4/5 = 0.8 meets 0.8, misses 0.81
  assert.equal(repeatStatus(4, 5, 0.8), 'flaky');
  assert.equal(repeatStatus(4, 5, 0.81), 'fail');
  assert.equal(repeatStatus(5, 5, 1), 'pass');
  assert.equal(repeatStatus(0, 5, 0), 'fail');
});

test('combineRuns: rate, Wilson interval, the first failed run shown, blocked runs not counted, min_pass_rate and advisory', () => {
  const runs = [
    [step('ready', 1, 'pass'), step('meta', 4, 'pass'), step('cancel', 8, 'pass'), step('hang', 6, 'fail', 'hung')],
    [
      step('ready', 1, 'pass'),
      step('meta', 4, 'fail', 'meta lost in run 2'),
      step('cancel', 8, 'blocked', 'blocked by x'),
      step('hang', 6, 'fail', 'hung'),
    ],
    [step('ready', 1, 'pass'), step('meta', 4, 'pass'), step('cancel', 8, 'pass'), step('hang', 6, 'pass')],
  ];
  const by = Object.fromEntries(combineRuns(runs, {}).map((s) => [s.name, s]));
  assert.equal(by.ready.status, 'pass');
  assert.deepEqual(by.ready.rate, { passes: 3, runs: 3, rate: 1, wilson95: [0.438, 1], failed_runs: [] });
  assert.equal(by.meta.status, 'flaky');
  assert.deepEqual(by.meta.rate, { passes: 2, runs: 3, rate: 0.667, wilson95: [0.208, 0.939], failed_runs: [2] });
  assert.match(by.meta.reason, /^2\/3 runs passed \(rate 0\.667, Wilson 95% \[0\.208, 0\.939\]\); run 2 failed: meta lost in run 2$/);
  assert.deepEqual(by.meta.evidence, { said: 'meta lost in run 2' });
  // a trial is a run in which the step ran: blocked in run 2, 2/2
  assert.equal(by.cancel.status, 'pass');
  assert.equal(by.cancel.rate!.runs, 2);
  assert.match(by.cancel.reason, /did not run in 1 run/);
  assert.equal(by.hang.status, 'flaky');
  assert.deepEqual(by.hang.rate!.failed_runs, [1, 2]);
  // min_pass_rate 0.5 on the point estimate: hang 1/3 fails, meta 2/3 stays flaky; an advisory step is marked
  const strict = Object.fromEntries(
    combineRuns(runs, { hang: { min_pass_rate: 0.5 }, meta: { min_pass_rate: 0.5, required: false } }).map((s) => [s.name, s]),
  );
  assert.equal(strict.hang.status, 'fail');
  assert.match(strict.hang.reason, /below min_pass_rate 0\.5/);
  assert.equal(strict.meta.status, 'flaky');
  assert.equal(strict.meta.advisory, true);
  // never ran: the last run's status stays
  const never = combineRuns([[step('kill', 12, 'blocked', 'b')], [step('kill', 12, 'blocked', 'b')]], {});
  assert.equal(never[0].status, 'blocked');
  assert.equal(never[0].rate, undefined);
});

test('--repeat: 1..100, the deadline counts N attempts per cell instead of the retries', () => {
  assert.equal(resolveRepeat(undefined), 1);
  assert.equal(resolveRepeat(5), 5);
  for (const bad of [0, -1, 1.5, 101]) assert.throws(() => resolveRepeat(bad), /--repeat must be an integer from 1 to 100/);
  const cfg = validateGateConfig(JSON.parse(readFileSync(join(REPO, 'gate.config.json'), 'utf8')), join(REPO, 'gate.config.json'));
  const one = runDeadlineMs(cfg, 1, 1, false);
  assert.equal(runDeadlineMs(cfg, 1, 1, false, 1), one);
  assert.equal(runDeadlineMs(cfg, 1, 1, false, 5) - one, cfg.timeouts.cell_ms * (5 - (cfg.retries + 1)));
});

test('config: steps.<name>.min_pass_rate is 0..1 and may stand alone', () => {
  const raw = () => JSON.parse(readFileSync(join(REPO, 'gate.config.json'), 'utf8'));
  const ok = raw();
  ok.steps = { meta: { min_pass_rate: 0.9 } };
  assert.equal(validateGateConfig(ok, 'gate.config.json').steps.meta.min_pass_rate, 0.9);
  const bad = raw();
  bad.steps = { meta: { min_pass_rate: 1.5 } };
  assert.throws(() => validateGateConfig(bad, 'gate.config.json'), /\/steps\/meta\/min_pass_rate must be <= 1/);
  const empty = raw();
  empty.steps = { meta: {} };
  assert.throws(() => validateGateConfig(empty, 'gate.config.json'), /\/steps\/meta/);
});

const report = (steps: StepResult[], repeat: number): GateReport => ({
  schema_version: 1,
  tool: 'mcpgauge gate',
  generated_at: new Date(0).toISOString(),
  verdict: 'fail',
  exit_code: 1,
  run_id: 'abcd1234',
  proxy: { description: 'p' },
  config: { file: 'gate.config.json' },
  options: { jobs: 1, allow_flaky: false, cells: ['stdio/2025-11-25'], baseline: null, client_protocol: 'legacy', retries: 0, repeat },
  steps: steps.map((s) => ({ order: s.order, name: s.name, title: s.name, optional: false })),
  cells: [
    {
      id: 'stdio/2025-11-25',
      transport: 'stdio',
      era: '2025-11-25',
      required: true,
      status: 'flaky',
      reason: 'flaky',
      attempts: repeat,
      duration_ms: 5,
      steps,
      metrics: {},
      logs: [],
    },
  ],
  counts: { pass: 0, fail: 0, flaky: 1, skipped: 0 },
  failures: ['stdio/2025-11-25: flaky'],
  advisories: [],
  timing: { total_ms: 5, provenance: 'measured' },
});

test('summary.md and junit.xml show k/N [lo, hi] for repeated runs; a single run looks as before', () => {
  const combined = combineRuns(
    [
      [step('ready', 1, 'pass'), step('meta', 4, 'pass')],
      [step('ready', 1, 'pass'), step('meta', 4, 'fail')],
      [step('ready', 1, 'pass'), step('meta', 4, 'pass')],
    ],
    {},
  );
  const r = report(combined, 3);
  assert.deepEqual(validateGateReport(r), []);
  const md = renderSummary(r);
  assert.match(md, /\| ✅ 3\/3 \[0\.44, 1\.00\] \| ⚠️ 2\/3 \[0\.21, 0\.94\] \|/);
  assert.match(md, /Each cell ran 3 times/);
  const junit = renderJunit(r);
  assert.match(junit, /<property name="pass_rate" value="2\/3 \[0\.21, 0\.94\]"\/>/);
  assert.match(junit, /<system-out>flaky: 2\/3 runs passed/);
  const single = report([step('ready', 1, 'pass')], 1);
  assert.deepEqual(validateGateReport(single), []);
  assert.doesNotMatch(renderSummary(single), /\d\/\d \[|Each cell ran/);
  assert.doesNotMatch(renderJunit(single), /pass_rate/);
});

test('fragments: --repeat N > 1 enters the options digest, N = 1 leaves it as without the flag', async () => {
  const { optionsDigest } = await import('../../pipeline/gate/digest.ts');
  const { ADAPTER_DEFAULTS } = await import('../../pipeline/adapter/index.ts');
  const base = { clientProtocol: 'legacy', adapter: ADAPTER_DEFAULTS };
  assert.equal(optionsDigest({ ...base, repeat: 1 }), optionsDigest(base));
  assert.notEqual(optionsDigest({ ...base, repeat: 3 }), optionsDigest(base));
  assert.notEqual(optionsDigest({ ...base, repeat: 3 }), optionsDigest({ ...base, repeat: 5 }));
});

test('mcpgauge gate --repeat 0 / --repeat x: one line, exit 2, nothing started', async () => {
  for (const bad of ['0', 'x', '101']) {
    const r = await runGateCli(['--cells', 'stdio/2025-11-25', '--no-fixture-grade', '--repeat', bad]);
    try {
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`--repeat must be an integer from 1 to 100 \\(runs per cell\\), got "${bad}"`));
      assert.equal(r.report, undefined);
    } finally {
      r.cleanup();
    }
  }
});
