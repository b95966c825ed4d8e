/**
 * Proof the gate can fail, part 3 (split from sabotage.test.ts to stay under the per-file test
 * timeout): the reference proxy's recovery switches, two defects in one run, and an advisory step. Real processes, real loopback HTTP; cases run concurrently (each has its own
 * ports and folders).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { SABOTAGE, runGateCli, type SabotageCase, SABOTAGE_SUITE, sabotageCases } from './helpers.ts';

const CASES: SabotageCase[] = [
  {
    name: 'needs a manual restart after an upstream crash -> crash',
    cells: ['stdio/2025-11-25'],
    env: { [SABOTAGE]: 'manual-restart' },
    red: { 'stdio/2025-11-25': 'crash' },
  },
  {
    name: 'reconnect disabled -> crash (HTTP+SSE upstream)',
    cells: ['sse/2025-11-25'],
    env: { [SABOTAGE]: 'no-reconnect' },
    red: { 'sse/2025-11-25': 'crash' },
  },
  // two independent defects in one proxy: both red in the same run, the steps that need neither still pass
  {
    name: '_meta dropped and no call timeout -> meta and hang, one run',
    cells: ['http-stateless/2026-07-28'],
    env: { [SABOTAGE]: 'drop-meta,no-timeout' },
    red: { 'http-stateless/2026-07-28': ['meta', 'hang'] },
  },
];

describe('sabotaged proxies go red exactly where they should', SABOTAGE_SUITE, () => sabotageCases(CASES));

test('an advisory step ("steps": {"meta": {"required": false}}) is reported, not failing the gate', async () => {
  const r = await runGateCli(
    ['--cells', 'stdio/2025-11-25', '--no-fixture-grade'],
    { [SABOTAGE]: 'drop-meta' },
    {
      patch: (cfg) => {
        cfg.steps = { meta: { required: false } };
        delete cfg.compliance;
      },
    },
  );
  try {
    const why = `${r.stdout}\n${r.stderr.slice(-1500)}`;
    assert.equal(r.code, 0, why);
    const cell = r.report!.cells[0];
    assert.equal(cell.status, 'pass', why);
    const meta = cell.steps.find((s) => s.name === 'meta')!;
    assert.equal(meta.status, 'fail');
    assert.equal(meta.advisory, true);
    assert.ok(
      r.report!.advisories.some((a) => a.startsWith('stdio/2025-11-25: step meta (advisory):')),
      r.report!.advisories.join('\n'),
    );
    assert.equal(r.report!.steps.find((s) => s.name === 'meta')!.required, false);
  } finally {
    r.cleanup();
  }
});
