/**
 * gate --repeat N on real gate runs (one cell, reference proxy): every step of a sound proxy is
 * N/N, and the `flaky-meta` sabotage (every third call with a caller _meta loses it, counted across
 * the runs' proxy processes in MCPGAUGE_PROXY_SABOTAGE_STATE) makes the meta step 2/3 with a Wilson
 * upper bound below 1, and the cell flaky (red without --allow-flaky).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SABOTAGE, runGateCli } from './helpers.ts';

const CELL = 'stdio/2025-11-25';

describe('gate --repeat', { concurrency: 2 }, () => {
  test('--repeat 3 on the reference proxy: 3/3 for every step that applies', async () => {
    const r = await runGateCli(['--cells', CELL, '--no-fixture-grade', '--repeat', '3', '--verbose']);
    try {
      const why = `stdout: ${r.stdout}\nstderr: ${r.stderr.slice(-2000)}`;
      assert.equal(r.code, 0, why);
      const rep = r.report!;
      assert.equal(rep.options.repeat, 3);
      const cell = rep.cells[0];
      assert.equal(cell.status, 'pass', cell.reason);
      assert.equal(cell.attempts, 3);
      for (const s of cell.steps) {
        if (s.name === 'regression') {
          assert.equal(s.status, 'skipped'); // no --baseline
          continue;
        }
        assert.equal(s.status, 'pass', `${s.name}: ${s.reason}`);
        assert.deepEqual(s.rate, { passes: 3, runs: 3, rate: 1, wilson95: [0.438, 1], failed_runs: [] }, s.name);
      }
      assert.ok(
        cell.steps.some((s) => s.name === 'compliance' && s.status === 'pass'),
        'the compliance step ran too',
      );
      assert.equal(cell.logs.filter((l) => l.endsWith('proxy.log')).length, 3, 'one proxy log per run');
      assert.match(readFileSync(join(r.out, 'summary.md'), 'utf8'), /✅ 3\/3 \[0\.44, 1\.00\]/);
      // --verbose: each step line names its run
      for (const i of [1, 2, 3]) assert.match(r.stderr, new RegExp(`stdio/2025-11-25 run ${i}/3: +1 ready pass`));
      assert.match(readFileSync(join(r.out, 'junit.xml'), 'utf8'), /<property name="pass_rate" value="3\/3 \[0\.44, 1\.00\]"\/>/);
    } finally {
      r.cleanup();
    }
  });

  test('one call in three sabotaged: meta 2/3, interval excludes 1, every other step 3/3, the cell flaky', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-repeat-test-'));
    const r = await runGateCli(
      ['--cells', CELL, '--no-fixture-grade', '--repeat', '3'],
      { [SABOTAGE]: 'flaky-meta', MCPGAUGE_PROXY_SABOTAGE_STATE: join(dir, 'count') },
      { patch: (c) => delete c.compliance },
    );
    try {
      const why = `stdout: ${r.stdout}\nstderr: ${r.stderr.slice(-2000)}`;
      assert.equal(r.code, 1, why);
      const cell = r.report!.cells[0];
      assert.equal(cell.status, 'flaky', cell.reason);
      for (const s of cell.steps) {
        if (s.name === 'meta') {
          assert.equal(s.status, 'flaky', s.reason);
          assert.deepEqual(s.rate, { passes: 2, runs: 3, rate: 0.667, wilson95: [0.208, 0.939], failed_runs: [3] });
          assert.ok(s.rate!.wilson95[1] < 1, 'the interval excludes 1');
          assert.match(s.reason, /run 3 failed: the caller's _meta did not come back intact/);
          assert.ok(
            s.logs?.some((l) => l.includes('attempt-3/')),
            "the failed run's logs are linked",
          );
        } else if (s.status !== 'skipped') assert.deepEqual([s.name, s.status, s.rate?.passes, s.rate?.runs], [s.name, 'pass', 3, 3]);
      }
      assert.match(
        r.report!.failures.join('\n'),
        /stdio\/2025-11-25: flaky \(flaky over 3 runs: meta 2\/3 \[0\.21, 0\.94\]\); counts as a pass only with --allow-flaky/,
      );
      assert.match(readFileSync(join(r.out, 'summary.md'), 'utf8'), /⚠️ 2\/3 \[0\.21, 0\.94\]/);
    } finally {
      r.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
