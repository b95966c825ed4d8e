/**
 * Which calls of a live run reach a fault-injecting upstream (pipeline/live/README.md "Which
 * calls reach a fault-injecting upstream"): the reference proxy, started by command, in front of
 * the fixture over real loopback HTTP; the fixture's own message counters say what arrived.
 * Readiness probes, warm-up and measured discovery calls are answered from the proxy's index:
 * no tools/call reaches the upstream, and tools/list arrives only from the proxy's start-up
 * listing and the live stage's full-menu listing.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLive } from '../../pipeline/live/live-stage.ts';
import { DEFAULT_GOLDEN, REPO_ROOT } from '../../pipeline/constants.ts';
import { inprocFixture } from '../fixture/helpers.ts';
import { tempDir } from '../proxy/helpers.ts';

const t = tempDir('live-fault-counts');
after(() => t.cleanup());

test('readiness, warm-up and measured discovery calls consume no fault count on the upstream', async () => {
  const fx = await inprocFixture({ transport: 'streamable-http', catalog: '40' });
  try {
    const cfg = t.write('proxy.json', { servers: [{ name: 'fx', url: fx.url }], tools_limit: 5, connect_timeout_ms: 60_000 });
    // two queries of the default golden set (validated against the default corpus; they match
    // nothing here, which is fine: this test counts calls, not relevance)
    const def = JSON.parse(readFileSync(DEFAULT_GOLDEN, 'utf8')) as { queries: unknown[] };
    const golden = t.write('golden.json', { ...def, version: 'test-fault-counts', queries: def.queries.slice(0, 2) });
    const before = { ...fx.state.gate.methodCounts };
    const live = await runLive({
      proxyCmd: `node ${join(REPO_ROOT, 'bin', 'mcpgauge.mjs')} proxy --config ${cfg} --transport stdio`,
      upstreamsFile: cfg,
      goldenFile: golden,
      runs: 2,
      warmup: 2,
      timeoutMs: 60_000,
      bootstrap: { iterations: 50, seed: 1 },
    });
    assert.deepEqual(live.errors, []);
    const measured = live.latency.reduce((s, l) => s + l.n, 0);
    assert.ok(measured >= 8, `measured discovery calls: ${measured}`);
    const after = fx.state.gate.methodCounts;
    const delta = (m: string) => (after[m] ?? 0) - (before[m] ?? 0);
    assert.equal(delta('tools/call'), 0, 'no discovery call reached the upstream as a tools/call');
    // one listing by the proxy at start-up, one by the live stage for the full menu
    assert.equal(delta('tools/list'), 2, JSON.stringify(after));
  } finally {
    await fx.stop();
  }
});
