/**
 * The network cells with the real fault proxy: toxiproxy (built once into the cache) between the
 * reference proxy and the real fixture, every fault of pipeline/gate/network/faults.ts set through
 * toxiproxy's API. Green on the reference proxy, each verdict carrying its toxics and timeline;
 * the sabotage that makes them red is in sabotage-network.test.ts. Skipped (with the reason)
 * where Go is missing and no build is cached.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGateConfig, selectCells } from '../../pipeline/gate/config.ts';
import { NETWORK_CELL_IDS } from '../../pipeline/gate/cells.ts';
import { NETWORK_FAULTS } from '../../pipeline/gate/network/faults.ts';
import { NETWORK_STEPS, NET_FAULT_ORDER_ENV } from '../../pipeline/gate/steps/index.ts';
import { REPO, assertRedExactly, runGateCli } from './helpers.ts';
import { NET_CELLS, NO_TOXIPROXY } from './network-helpers.ts';

test('network cells run only where asked: config network.enabled, --network, or --cells net:…', () => {
  const cfg = loadGateConfig(join(REPO, 'gate.config.json'));
  assert.deepEqual([...NETWORK_CELL_IDS].sort(), [...NET_CELLS].sort());
  assert.equal(cfg.network.enabled, false, 'the committed config leaves them out of make gate (time)');
  const plain = selectCells(cfg, undefined);
  assert.ok(!plain.some((id) => id.startsWith('net:')), plain.join(','));
  const withNet = selectCells(cfg, undefined, true, true);
  for (const id of NET_CELLS) assert.ok(withNet.includes(id), id);
  assert.deepEqual(selectCells(cfg, ['stdio/2025-11-25'], true, true).sort(), ['stdio/2025-11-25', ...NET_CELLS].sort());
  assert.deepEqual(selectCells(cfg, ['net:sse/2025-11-25']), ['net:sse/2025-11-25']);
  assert.deepEqual(
    NETWORK_STEPS.map((s) => s.meta.name),
    ['ready', 'call', ...NETWORK_FAULTS.map((f) => `net-${f.name}`)],
  );
});

test('the reference proxy is green in every network cell; each verdict carries its toxics and when', { skip: NO_TOXIPROXY }, async () => {
  const r = await runGateCli(['--cells', NET_CELLS.join(','), '--no-fixture-grade'], {}, { patch: (c) => delete c.compliance });
  try {
    assertRedExactly(r, {});
    const summary = readFileSync(join(r.out, 'summary.md'), 'utf8');
    const junit = readFileSync(join(r.out, 'junit.xml'), 'utf8');
    assert.match(summary, /## Network cells \(the fixture behind toxiproxy\)/);
    for (const c of r.report!.cells) {
      assert.equal(c.status, 'pass', c.id);
      for (const f of NETWORK_FAULTS) {
        const st = c.steps.find((s) => s.name === `net-${f.name}`);
        assert.ok(st, `${c.id}: step net-${f.name}`);
        assert.equal(st!.status, 'pass', `${c.id} ${st!.name}: ${st!.reason}`);
        const n = st!.evidence.network as any;
        assert.deepEqual(
          n.toxics.map((t: any) => t.type),
          f.toxics(3000).map((t) => t.type),
          `${c.id} ${st!.name}: the toxics that were set`,
        );
        assert.deepEqual([...n.toxiproxy_reported].sort(), n.toxics.map((t: any) => t.name).sort(), 'toxiproxy said they were set');
        const tl = n.timeline_ms;
        assert.ok(
          tl.toxics_set <= tl.call_sent &&
            tl.call_sent <= tl.call_answered &&
            tl.call_answered <= tl.toxics_removed &&
            tl.toxics_removed <= tl.recovered,
          JSON.stringify(tl),
        );
        assert.equal(n.call.outcome === 'ok', f.expect === 'success', `${c.id} ${st!.name}: ${n.call.said}`);
        assert.ok(n.call.ms <= n.call.deadline_ms, `${c.id} ${st!.name}: answered within its deadline`);
        assert.equal(n.second_session.outcome, 'ok', `${c.id} ${st!.name}: a second session is not affected`);
        assert.ok(n.connections.after <= n.connections.allowed, `${c.id} ${st!.name}: ${JSON.stringify(n.connections)}`);
        assert.ok(n.processes.after <= n.processes.before, JSON.stringify(n.processes));
        assert.ok(summary.includes(`| ${c.id} | ✅ net-${f.name} |`), `summary.md shows ${c.id} net-${f.name}`);
      }
    }
    assert.match(junit, /<property name="toxics" value="timeout upstream timeout=0"\/>/);
    assert.match(junit, /<property name="toxics_set_ms" value="\d+"\/>/);
  } finally {
    r.cleanup();
  }
});

test('a fault verdict does not depend on its place: in reverse order (slow-close first) every fault is still green in the HTTP cells', {
  skip: NO_TOXIPROXY,
}, async () => {
  // toxiproxy 2.5.0 crashed when a toxic was added while slow-close's held connection lived
  // (steps/network.ts drainLink): whatever fault ran after slow-close failed with "fetch failed"
  const cells = NET_CELLS.filter((id) => id.startsWith('net:http-'));
  const r = await runGateCli(
    ['--cells', cells.join(','), '--no-fixture-grade'],
    { [NET_FAULT_ORDER_ENV]: 'reverse' },
    {
      patch: (c) => delete c.compliance,
    },
  );
  try {
    assertRedExactly(r, {});
    const reversed = [...NETWORK_FAULTS].reverse().map((f) => `net-${f.name}`);
    for (const c of r.report!.cells) {
      const ran = c.steps.filter((s) => s.name.startsWith('net-'));
      assert.deepEqual(
        [...ran].sort((a, b) => a.order - b.order).map((s) => s.name),
        reversed,
        `${c.id}: the faults ran in reverse order`,
      );
      for (const st of ran) assert.equal(st.status, 'pass', `${c.id} ${st.name}: ${st.reason}`);
      const slow = ran.find((s) => s.name === 'net-slow-close')!.evidence.network as any;
      assert.equal(slow.connections.held_by_fault_proxy, 0, `${c.id}: toxiproxy let go of the held connection: ${JSON.stringify(slow)}`);
      assert.ok(
        slow.timeline_ms.drained >= slow.timeline_ms.call_sent + 6000,
        `${c.id}: drained after the 6 s close delay: ${JSON.stringify(slow.timeline_ms)}`,
      );
    }
  } finally {
    r.cleanup();
  }
});

test('without Go and without a cached build the network cells are skipped with the reason (only they selected: nothing evaluated, exit 2)', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'mcpgauge-net-nogo-'));
  const r = await runGateCli(['--cells', 'net:sse/2025-11-25', '--no-fixture-grade'], { MCPGAUGE_CACHE_DIR: cache, MCPGAUGE_GO: '' });
  try {
    const why = `${r.stdout}\n${r.stderr.slice(-1500)}`;
    assert.equal(r.code, 2, why);
    assert.equal(r.report, undefined, 'no report: the run could not evaluate anything');
    assert.match(r.stderr, /net:sse\/2025-11-25: skipped: toxiproxy v2\.5\.0 is not built \(.*\) and Go is missing/);
    assert.match(r.stderr, /nothing evaluated: no selected cell can run \(net:sse\/2025-11-25 skipped: toxiproxy v2\.5\.0 is not built/);
  } finally {
    r.cleanup();
    rmSync(cache, { recursive: true, force: true });
  }
});
