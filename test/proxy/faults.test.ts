/**
 * Upstream failures with real processes: the fixture's crash and hang fault modes, a killed
 * child, a hung tools/list, an upstream that never starts (HTTP upstreams: remote.test.ts).
 * The proxy must detect, restart/reconnect, re-index, fail calls within the call timeout and
 * keep serving.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resultText } from '../../pipeline/mcp/client.ts';
import { join } from 'node:path';
import { FAST_RESTART, REPO, alive, fixtureServer, memoryServer, pingInstance, waitFor, withProxy } from './helpers.ts';

test('crashed stdio upstream (fixture BACKEND_MODE=crash): in-flight call fails fast, upstream restarted and re-indexed unprompted', async () => {
  await withProxy(
    {
      servers: [fixtureServer('fx', { BACKEND_MODE: 'crash', CRASH_AFTER_N: '2', FAULT_METHODS: 'tools/call' }), memoryServer('mem')],
      call_timeout_ms: 30_000,
    },
    async (p, c) => {
      const before = p.upstreamStatus()[0];
      assert.equal(before.state, 'connected');
      const nTools = p.toolCount();
      const first = await c.callTool('call_tool', { name: 'fx:ping', arguments: {} });
      assert.equal(first.isError, undefined, resultText(first));
      const id1 = pingInstance(resultText(first));

      const t0 = Date.now();
      const crashed = await c.callTool('call_tool', { name: 'fx:ping', arguments: {} });
      const took = Date.now() - t0;
      assert.equal(crashed.isError, true);
      assert.match(resultText(crashed), /^call_tool fx:ping: upstream 'fx' connection lost during the call: connection closed/);
      assert.ok(took < 30_000, `the crash was reported after ${took} ms, before the 30000 ms call timeout`);

      const st = await waitFor(
        'fx restarted',
        () => p.upstreamStatus()[0],
        (s) => s.connected && s.restarts === 1,
      );
      assert.notEqual(st.pid, before.pid);
      assert.ok(!alive(before.pid!), 'the crashed child is gone');
      assert.match(st.last_error ?? '', /connection closed/);
      assert.equal(p.toolCount(), nTools, 're-indexed after the restart');
      const again = await c.callTool('call_tool', { name: 'fx:ping', arguments: {} });
      assert.equal(again.isError, undefined, resultText(again));
      assert.notEqual(pingInstance(resultText(again)), id1, 'a new fixture process answers');
      // the retrieval index holds the restarted upstream's tools again
      const rt = JSON.parse(resultText(await c.callTool('retrieve_tools', { query: 'returns pong call counter', limit: 1 })));
      assert.equal(rt.tools[0].name, 'fx:ping');
      // the other upstream was never touched
      assert.equal(p.upstreamStatus()[1].restarts, 0);
    },
  );
});

test('killed upstream child (SIGKILL on its pid): detected, restarted with backoff, tools back; manual restart via upstream_servers', async () => {
  await withProxy({ servers: [memoryServer('mem')], call_timeout_ms: 10_000 }, async (p, c) => {
    const pid = p.upstreamStatus()[0].pid!;
    const n = p.toolCount();
    assert.ok(n > 0);
    process.kill(pid, 'SIGKILL');
    // while it is down the tools leave the index, then come back by themselves
    const st = await waitFor(
      'mem back',
      () => p.upstreamStatus()[0],
      (s) => s.connected && s.restarts === 1 && s.pid !== pid,
    );
    assert.equal(p.toolCount(), n);
    assert.match(st.last_error ?? '', /connection closed \(pid \d+ exited\)/);
    const r = await c.callTool('call_tool', { name: 'mem:read_graph', arguments: {} });
    assert.equal(r.isError, undefined, resultText(r));

    const res = JSON.parse(resultText(await c.callTool('upstream_servers', { action: 'restart', name: 'mem' })));
    assert.equal(res.restarted, 'mem');
    assert.equal(res.server.connected, true);
    assert.equal(res.server.restarts, 2);
    assert.notEqual(res.server.pid, st.pid);
    assert.ok(!alive(st.pid!), 'the replaced child was stopped');
    assert.equal(p.toolCount(), n);
  });
});

test('hung upstream (fixture BACKEND_MODE=hang): call_tool answers a clear error within call_timeout_ms; proxy keeps serving', async () => {
  await withProxy(
    {
      servers: [fixtureServer('fx', { BACKEND_MODE: 'hang', HANG_AFTER_N: '1', FAULT_METHODS: 'tools/call' }), memoryServer('mem')],
      call_timeout_ms: 1500,
    },
    async (p, c) => {
      const t0 = Date.now();
      const hung = await c.callTool('call_tool', { name: 'fx:echo', arguments: { input: 'abc' } });
      const took = Date.now() - t0;
      assert.equal(hung.isError, true);
      assert.equal(resultText(hung), "call_tool fx:echo: upstream 'fx' did not answer tools/call 'echo' within the 1500 ms call timeout");
      assert.ok(took >= 1400 && took < 1500 + 5000, `took ${took} ms`); // slack for a loaded machine
      // the proxy and the other upstream still answer; the fixture answers later calls (only the 1st hangs)
      const mem = await c.callTool('call_tool', { name: 'mem:read_graph', arguments: {} });
      assert.equal(mem.isError, undefined);
      const next = await c.callTool('call_tool', { name: 'fx:echo', arguments: { input: 'abc' } });
      assert.equal(next.isError, undefined, resultText(next));
      assert.deepEqual(next.structuredContent, { output: 'abc' });
      assert.equal(p.upstreamStatus()[0].connected, true);
    },
  );
});

test('an upstream whose tools/list hangs is caught by the health check and restarted', async () => {
  await withProxy(
    {
      // tools/list #1 (connect) answers, #2 (first health check) hangs
      servers: [fixtureServer('fx', { BACKEND_MODE: 'hang', HANG_AFTER_N: '2', FAULT_METHODS: 'tools/list' })],
      health_interval_ms: 300,
      health_timeout_ms: 700,
    },
    async (p, c) => {
      const pid = p.upstreamStatus()[0].pid;
      const st = await waitFor(
        'fx restarted after a failed health check',
        () => p.upstreamStatus()[0],
        (s) => s.connected && s.restarts === 1,
      );
      assert.equal(st.last_error, 'health check failed: no answer to tools/list within 700 ms');
      assert.notEqual(st.pid, pid);
      assert.ok(!alive(pid!), 'the hung child was stopped');
      const r = await c.callTool('call_tool', { name: 'fx:echo', arguments: { input: 'ok' } });
      assert.deepEqual(r.structuredContent, { output: 'ok' });
    },
  );
});

test('an upstream that never starts: other upstreams serve; its calls fail with the next failed reconnect, before the call timeout', async () => {
  await withProxy(
    {
      servers: [
        { name: 'dead', command: process.execPath, args: ['-e', 'console.error("no such backend"); process.exit(3)'] },
        memoryServer('mem'),
      ],
      call_timeout_ms: 10_000,
      restart: { ...FAST_RESTART, max_ms: 300 },
    },
    async (p, c, logs) => {
      const st = p.upstreamStatus();
      assert.equal(st[0].connected, false);
      assert.match(st[0].last_error ?? '', /no such backend/);
      assert.equal(st[1].connected, true);
      assert.ok(p.toolCount() > 0);
      const t0 = Date.now();
      const r = await c.callTool('call_tool', { name: 'dead:anything', arguments: {} });
      const took = Date.now() - t0;
      assert.equal(r.isError, true);
      assert.match(
        resultText(r),
        /^call_tool dead:anything: upstream 'dead' is not connected \(state: (backoff|connecting); last error: .*no such backend.*\); waited \d+ ms for a reconnect \(call timeout 10000 ms\)$/,
      );
      assert.ok(took < 10_000, `took ${took} ms: the next failed reconnect ends the wait, before the call timeout`);
      // it keeps retrying in the background (backoff 100, 200, 300, 300 ... ms)
      await waitFor(
        'retries',
        () => logs.filter((l) => l.startsWith("upstream 'dead' failed to connect")).length,
        (n) => n >= 3,
        10_000,
      );
      const ok = await c.callTool('call_tool', { name: 'mem:read_graph', arguments: {} });
      assert.equal(ok.isError, undefined, resultText(ok));
    },
  );
});

test('an upstream announcing a changed tool list (list_changed) is re-listed and re-indexed', async () => {
  const script = join(REPO, 'test', 'proxy', 'servers', 'growing.mjs');
  await withProxy({ servers: [{ name: 'dyn', command: process.execPath, args: [script] }], health_interval_ms: 0 }, async (p, c) => {
    assert.equal(p.toolCount(), 1);
    const none = JSON.parse(resultText(await c.callTool('retrieve_tools', { query: 'calibrate quantum flux capacitor' })));
    assert.deepEqual(none.tools, []);
    const r = await c.callTool('call_tool', {
      name: 'dyn:grow',
      arguments: { name: 'calibrate_flux', description: 'Calibrate the quantum flux capacitor.' },
    });
    assert.equal(resultText(r), 'added calibrate_flux');
    await waitFor(
      're-indexed',
      () => p.toolCount(),
      (n) => n === 2,
      20_000,
    );
    const hit = JSON.parse(resultText(await c.callTool('retrieve_tools', { query: 'calibrate quantum flux capacitor' })));
    assert.deepEqual(
      hit.tools.map((t: { name: string }) => t.name),
      ['dyn:calibrate_flux'],
    );
    const ran = await c.callTool('call_tool', { name: 'dyn:calibrate_flux', arguments: {} });
    assert.equal(resultText(ran), 'calibrate_flux ran');
    assert.equal(p.upstreamStatus()[0].restarts, 0);
  });
});
