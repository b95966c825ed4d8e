/**
 * Proof the gate can fail, part 3 (split from sabotage.test.ts to stay under the per-file test
 * timeout): the reference proxy's recovery switches, two defects in one run, and an advisory step. Real processes, real loopback HTTP; cases run concurrently (each has its own
 * ports and folders).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY, REFERENCE_TEMPLATE, assertRedExactly, runGateCli } from './helpers.ts';

const SABOTAGE = 'MCPGAUGE_PROXY_SABOTAGE';
const gateway = (brk?: string) => ['--proxy-cmd', brk ? `${GATEWAY} --break ${brk}` : GATEWAY, '--proxy-config-template', REFERENCE_TEMPLATE];

interface Case {
  name: string;
  cells: string[];
  args?: string[];
  env?: Record<string, string>;
  red: Record<string, string | string[]>;
  /** grade the fixture itself too (once per gate run; the other cases skip it to save time) */
  fixtureGrade?: boolean;
}

const CASES: Case[] = [
  { name: 'needs a manual restart after an upstream crash -> crash', cells: ['stdio/2025-11-25'], env: { [SABOTAGE]: 'manual-restart' }, red: { 'stdio/2025-11-25': 'crash' } },
  { name: 'reconnect disabled -> crash (HTTP+SSE upstream)', cells: ['sse/2025-11-25'], env: { [SABOTAGE]: 'no-reconnect' }, red: { 'sse/2025-11-25': 'crash' } },
  // two independent defects in one proxy: both red in the same run, the steps that need neither still pass
  { name: '_meta dropped and no call timeout -> meta and hang, one run', cells: ['http-stateless/2026-07-28'], env: { [SABOTAGE]: 'drop-meta,no-timeout' }, red: { 'http-stateless/2026-07-28': ['meta', 'hang'] } },
];

describe('sabotaged proxies go red exactly where they should', { concurrency: 2 }, () => {
  for (const c of CASES) {
    test(c.name, async () => {
      // the red cases leave the compliance step out (its own tests: compliance-step.test.ts): every
      // independent step runs now, and grading each sabotaged proxy would only add time
      const patch = Object.keys(c.red).length ? (cfg: any) => delete cfg.compliance : undefined;
      const r = await runGateCli(['--cells', c.cells.join(','), ...(c.args ?? []), ...(c.fixtureGrade ? [] : ['--no-fixture-grade'])], c.env ?? {}, { patch });
      try {
        assertRedExactly(r, c.red);
        if (c.fixtureGrade) {
          const y = r.report!.fixture_compliance!;
          assert.equal(y.status, 'pass', y.reason);
          assert.deepEqual(y.runs.map((x) => `${x.wire}/${x.revision}:${x.grade}`).sort(), ['http-sse/2025-11-25:A', 'http-stateful/2025-11-25:A', 'http-stateless/2025-11-25:A', 'http-stateless/2026-07-28:A', 'stdio/2025-11-25:A', 'stdio/2026-07-28:A']);
          assert.match(readFileSync(join(r.out, 'summary.md'), 'utf8'), /## The yardstick: the fixture's own compliance grade \(pass\)/);
        } else assert.equal(r.report?.fixture_compliance, undefined);
      } finally {
        r.cleanup();
      }
    });
  }
});

test('an advisory step ("steps": {"meta": {"required": false}}) is reported, not failing the gate', async () => {
  const r = await runGateCli(['--cells', 'stdio/2025-11-25', '--no-fixture-grade'], { [SABOTAGE]: 'drop-meta' }, {
    patch: (cfg) => {
      cfg.steps = { meta: { required: false } };
      delete cfg.compliance;
    },
  });
  try {
    const why = `${r.stdout}\n${r.stderr.slice(-1500)}`;
    assert.equal(r.code, 0, why);
    const cell = r.report!.cells[0];
    assert.equal(cell.status, 'pass', why);
    const meta = cell.steps.find((s) => s.name === 'meta')!;
    assert.equal(meta.status, 'fail');
    assert.equal(meta.advisory, true);
    assert.ok(r.report!.advisories.some((a) => a.startsWith('stdio/2025-11-25: step meta (advisory):')), r.report!.advisories.join('\n'));
    assert.equal(r.report!.steps.find((s) => s.name === 'meta')!.required, false);
  } finally {
    r.cleanup();
  }
});
