/**
 * Proof the gate can fail: deliberately broken proxies (test-only switches of the reference proxy)
 * make exactly the intended cell/step red and nothing else. Split in three files to stay well
 * under the per-file test timeout on a loaded machine: the recovery cases and the advisory step
 * are in sabotage-recovery.test.ts, the planted-bug gateways in sabotage-gateways.test.ts.
 * Real processes, real loopback HTTP; cases run concurrently (each has its own ports and folders).
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
  { name: '_meta dropped -> meta', cells: ['stdio/2025-11-25'], env: { [SABOTAGE]: 'drop-meta' }, red: { 'stdio/2025-11-25': 'meta' } },
  { name: 'calls serialized -> concurrency', cells: ['stdio/2026-07-28'], env: { [SABOTAGE]: 'serialize' }, red: { 'stdio/2026-07-28': 'concurrency' } },
  { name: 'no call timeout -> hang', cells: ['http-stateless/2025-11-25'], env: { [SABOTAGE]: 'no-timeout' }, red: { 'http-stateless/2025-11-25': 'hang' } },
  { name: 'cancellations swallowed -> cancel', cells: ['stdio/2025-11-25'], env: { [SABOTAGE]: 'swallow-cancel' }, red: { 'stdio/2025-11-25': 'cancel' } },
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
