/**
 * Real third-party gateways from the npm registry (devDependencies), gated with their presets
 * (datasets/presets): each goes red on its real defects, all in one run, and green on the steps it
 * handles (docs/gateways.md records the evidence). The mcp-proxy run uses the README's own
 * example line, so the README's third-party example is run by a test. One stdio cell each (they
 * front stdio upstreams only), no compliance grading (compliance-step.test.ts covers that step).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitCommandLine } from '../../pipeline/adapter/index.ts';
import { REPO, assertRedExactly, runGateCli } from './helpers.ts';

const fast = (cfg: any) => {
  delete cfg.compliance;
  cfg.timeouts.recovery_ms = 8000;
};

/** the README's gate example for a third-party gateway: `make gate ARGS="--preset mcp-proxy …"` */
function readmeExample(): string[] {
  const line = readFileSync(join(REPO, 'README.md'), 'utf8').split('\n').find((l) => l.startsWith('make gate ARGS="--preset mcp-proxy'));
  assert.ok(line, 'the README gate section shows a --preset mcp-proxy example');
  return splitCommandLine(/ARGS="([^"]*)"/.exec(line!)![1]);
}

test('gateways: npm mcp-proxy and supergateway go red on their real defects, all in one run each', { concurrency: 2 }, async (t) => {
  await Promise.all([
    t.test('mcp-proxy (the README example): never reconnects after its stdio child dies -> kill; every other step it can front passes; HTTP cells not applicable', async () => {
      const args = readmeExample();
      const r = await runGateCli([...args, '--cells', 'stdio/2025-11-25,http-stateless/2025-11-25', '--no-fixture-grade'], {}, { patch: fast });
      try {
        assertRedExactly(r, { 'stdio/2025-11-25': 'kill' });
        const na = r.report!.cells.find((c) => c.id === 'http-stateless/2025-11-25')!;
        assert.equal(na.status, 'not_applicable');
        assert.match(na.reason, /fronts stdio upstreams only \(preset mcp-proxy\)/);
        const cell = r.report!.cells.find((c) => c.id === 'stdio/2025-11-25')!;
        for (const s of ['hang', 'isolation', 'meta']) assert.equal(cell.steps.find((x) => x.name === s)!.status, 'pass', s);
        // a single-upstream bridge: the fault fixtures it cannot reach are never credited
        for (const s of ['concurrency', 'crash', 'cancel']) assert.match(cell.steps.find((x) => x.name === s)!.reason, /fronts one upstream/);
      } finally {
        r.cleanup();
      }
    }),
    t.test('supergateway (SSE, its default): no call timeout -> hang, one child shared by every session -> isolation, exits when its child dies -> kill', async () => {
      const r = await runGateCli(['--preset', 'supergateway', '--cells', 'stdio/2025-11-25', '--no-fixture-grade'], {}, { patch: fast });
      try {
        assertRedExactly(r, { 'stdio/2025-11-25': ['hang', 'isolation', 'kill'] });
        assert.match(r.report!.proxy.description, /--stdio "\{FIXTURE_CMD\}"/);
      } finally {
        r.cleanup();
      }
    }),
  ]);
});
