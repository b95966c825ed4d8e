/**
 * The sabotage cases (test/gate/sabotage-*.test.ts): deliberately broken proxies (test-only
 * switches of the reference proxy, and a small pass-through gateway with planted bugs) make
 * exactly the intended cell/step red and nothing else. Each case gates only the one cell it
 * needs. The cases are split over several test files so that no file runs long on a loaded
 * 2-core machine (each file runs its cases concurrently; each case has its own ports and folders).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY, REFERENCE_TEMPLATE, assertRedExactly, runGateCli } from './helpers.ts';

const SABOTAGE = 'MCPGAUGE_PROXY_SABOTAGE';
const gateway = (brk?: string) => ['--proxy-cmd', brk ? `${GATEWAY} --break ${brk}` : GATEWAY, '--proxy-config-template', REFERENCE_TEMPLATE];

export interface Case {
  name: string;
  cells: string[];
  args?: string[];
  env?: Record<string, string>;
  red: Record<string, string>;
  /** grade the fixture itself too (once per gate run; the other cases skip it to save time) */
  fixtureGrade?: boolean;
}

export const CASES: Case[] = [
  { name: '_meta dropped -> call', cells: ['stdio/2025-11-25'], env: { [SABOTAGE]: 'drop-meta' }, red: { 'stdio/2025-11-25': 'call' } },
  { name: 'calls serialized -> concurrency', cells: ['stdio/2026-07-28'], env: { [SABOTAGE]: 'serialize' }, red: { 'stdio/2026-07-28': 'concurrency' } },
  { name: 'no call timeout -> hang', cells: ['http-stateless/2025-11-25'], env: { [SABOTAGE]: 'no-timeout' }, red: { 'http-stateless/2025-11-25': 'hang' } },
  { name: 'cancellations swallowed -> cancel', cells: ['stdio/2025-11-25'], env: { [SABOTAGE]: 'swallow-cancel' }, red: { 'stdio/2025-11-25': 'cancel' } },
  { name: 'needs a manual restart after an upstream crash -> crash', cells: ['stdio/2025-11-25'], env: { [SABOTAGE]: 'manual-restart' }, red: { 'stdio/2025-11-25': 'crash' } },
  { name: 'reconnect disabled -> crash (HTTP+SSE upstream)', cells: ['sse/2025-11-25'], env: { [SABOTAGE]: 'no-reconnect' }, red: { 'sse/2025-11-25': 'crash' } },
  { name: 'pass-through gateway that never re-spawns its child -> crash', cells: ['stdio/2025-11-25'], args: gateway('no-respawn'), red: { 'stdio/2025-11-25': 'crash' } },
  { name: "gateway delivering one session's result to another -> isolation", cells: ['http-stateless/2025-11-25'], args: gateway('mix-sessions'), red: { 'http-stateless/2025-11-25': 'isolation' } },
  { name: 'gateway exiting when its upstream dies -> crash', cells: ['stdio/2025-11-25'], args: gateway('exit-on-death'), red: { 'stdio/2025-11-25': 'crash' } },
  { name: 'the correct pass-through gateway is green (and the fixture itself grades A)', cells: ['stdio/2025-11-25'], args: gateway(), red: {}, fixtureGrade: true },
];

/** Runs the named cases of CASES (every name must exist), concurrently two at a time. */
export function runSabotageCases(names: readonly string[]): void {
  const picked = names.map((n) => {
    const c = CASES.find((x) => x.name === n);
    if (!c) throw new Error(`no sabotage case named ${JSON.stringify(n)}`);
    return c;
  });
  describe('sabotaged proxies go red exactly where they should', { concurrency: 2 }, () => {
    for (const c of picked) {
      test(c.name, async () => {
        const r = await runGateCli(['--cells', c.cells.join(','), ...(c.args ?? []), ...(c.fixtureGrade ? [] : ['--no-fixture-grade'])], c.env ?? {});
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
}
