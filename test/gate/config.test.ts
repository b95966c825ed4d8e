/** gate.config.json strictness, harness errors (exit 2), and the committed config itself. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_FRESH_MS, loadGateConfig, validateGateConfig } from '../../pipeline/gate/config.ts';
import { CELL_IDS } from '../../pipeline/gate/cells.ts';
import { CONFIG_STEP_NAMES, NETWORK_STEP_NAMES, STEPS, dependentsOf } from '../../pipeline/gate/steps/index.ts';
import { REPO, runGateCli, testConfig } from './helpers.ts';

test('the committed gate.config.json is valid, names every cell, and every non-docker cell is required', () => {
  const c = loadGateConfig(join(REPO, 'gate.config.json'));
  assert.deepEqual(Object.keys(c.cells).sort(), [...CELL_IDS].sort());
  for (const [id, cell] of Object.entries(c.cells)) assert.equal(cell.required, !id.startsWith('docker/'), id);
  assert.deepEqual(
    STEPS.map((s) => s.meta.order),
    STEPS.map((_, i) => i + 1),
    'steps are listed in order',
  );
  const schema = JSON.parse(readFileSync(join(REPO, 'datasets', 'schemas', 'gate.config.schema.json'), 'utf8'));
  assert.deepEqual(
    schema.properties.steps.propertyNames.enum,
    CONFIG_STEP_NAMES,
    'the schema names exactly the steps the gate accepts: every step of the graph, then the network faults',
  );
  for (const n of [...STEPS.map((s) => s.meta.name), ...NETWORK_STEP_NAMES]) assert.ok(CONFIG_STEP_NAMES.includes(n), n);
});

test('the step graph: needs point at earlier steps; a failure blocks only its dependents', () => {
  const seen = new Set<string>();
  for (const s of STEPS) {
    for (const n of s.meta.needs) assert.ok(seen.has(n), `${s.meta.name} needs ${n}`);
    seen.add(s.meta.name);
  }
  assert.deepEqual(dependentsOf('meta'), [], 'nothing needs _meta propagation');
  assert.deepEqual(dependentsOf('hang').sort(), []);
  assert.deepEqual(dependentsOf('crash').sort(), ['kill']);
  assert.deepEqual(dependentsOf('discover').sort(), ['budget', 'freshness', 'regression']);
  assert.ok(dependentsOf('call').includes('freshness'), 'freshness calls the removed tool');
  assert.ok(!dependentsOf('call').includes('compliance') && !dependentsOf('call').includes('discover'));
});

test('unknown keys and bad values: one line naming the file and the field, exit code 2', () => {
  const base = loadGateConfig(join(REPO, 'gate.config.json'));
  const raw = (patch: (c: any) => void) => {
    const c = JSON.parse(JSON.stringify({ ...base, source: undefined }));
    delete c.source;
    patch(c);
    return c;
  };
  const bad: Array<[string, (c: any) => void, RegExp]> = [
    ['unknown top-level key', (c) => (c.colour = 'red'), /x\.json: \/ must NOT have additional properties \("colour"\)/],
    ['unknown timeout key', (c) => (c.timeouts.ready_s = 3), /\/timeouts must NOT have additional properties \("ready_s"\)/],
    ['negative timeout', (c) => (c.timeouts.step_ms = -1), /\/timeouts\/step_ms must be >= 100/],
    ['fresh_ms too small', (c) => (c.timeouts.fresh_ms = 10), /\/timeouts\/fresh_ms must be >= 100/],
    ['unknown cell', (c) => (c.cells['ftp/2025-11-25'] = { required: true }), /\/cells/],
    ['bad tokenizer', (c) => (c.budgets.tokenizer = 'gpt2'), /\/budgets\/tokenizer must be equal to one of the allowed values/],
    [
      'bad compliance grade',
      (c) => (c.compliance = { min_grade: 'Z' }),
      /\/compliance\/min_grade must be equal to one of the allowed values/,
    ],
    ['unknown step', (c) => (c.steps = { metta: { required: false } }), /\/steps/],
    ['unknown network step', (c) => (c.steps = { 'net-jitter': { required: false } }), /\/steps/],
    ['bad step entry', (c) => (c.steps = { meta: { required: 'no' } }), /\/steps\/meta\/required must be boolean/],
    [
      'unknown compliance key',
      (c) => (c.compliance = { min_grade: 'B', grade: 'A' }),
      /\/compliance must NOT have additional properties \("grade"\)/,
    ],
  ];
  // timeouts.fresh_ms is optional: absent in the committed file, the default applies
  assert.equal(base.timeouts.fresh_ms, DEFAULT_FRESH_MS);
  assert.equal(
    validateGateConfig(
      raw((c) => (c.timeouts.fresh_ms = 1500)),
      'x.json',
    ).timeouts.fresh_ms,
    1500,
  );
  // a network fault step may be made advisory like any other (the gate accepts it, so does the schema)
  assert.equal(
    validateGateConfig(
      raw((c) => (c.steps = { 'net-slow-close': { required: false } })),
      'x.json',
    ).steps['net-slow-close']?.required,
    false,
  );
  for (const [what, patch, re] of bad) {
    assert.throws(
      () => validateGateConfig(raw(patch), 'x.json'),
      (e: Error & { exitCode?: number }) => e.exitCode === 2 && re.test(e.message) && !e.message.includes('\n'),
      what,
    );
  }
});

test('the CLI: a bad config and a fixture that cannot start exit 2 with one line, nothing written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-gate-cfg-'));
  try {
    const cfg = join(dir, 'bad.json');
    writeFileSync(cfg, JSON.stringify({ cells: {} }));
    const r1 = await runGateCli(['--cells', 'stdio/2025-11-25'], {}, { config: cfg });
    r1.cleanup();
    assert.equal(r1.code, 2, r1.stderr);
    assert.match(r1.stderr, /^mcpgauge: .*bad\.json: .*\n$/);
    assert.equal(r1.report, undefined);
    // a fixture that cannot start (test-only extra argument it rejects) is a harness error, not a failed check
    const r2 = await runGateCli(['--cells', 'stdio/2025-11-25'], { MCPGAUGE_GATE_FIXTURE_ARGS: '["--catalog","-1"]' });
    r2.cleanup();
    assert.equal(r2.code, 2, r2.stderr);
    assert.match(r2.stderr, /the fixture cannot start: .*--catalog must be/);
    assert.equal(r2.report, undefined, 'no report for a harness error');
    const r3 = await runGateCli(['--cells', 'stdio/2025-11-25,nope/1']);
    r3.cleanup();
    assert.equal(r3.code, 2);
    assert.match(r3.stderr, /unknown cell "nope\/1"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('testConfig keeps the schema valid (helpers used by the sabotage tests)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-gate-cfg-'));
  try {
    const c = loadGateConfig(testConfig(dir));
    assert.equal(c.retries, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
