/** Remote upstreams: the fixture over streamable HTTP and over legacy HTTP+SSE. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resultText } from '../../pipeline/mcp/client.ts';
import { startFixtureProcess } from '../../pipeline/fixture/launch.ts';
import { pingInstance, waitFor, withProxy } from './helpers.ts';

test('legacy HTTP+SSE upstream: listed, indexed and called through the proxy', async () => {
  const fx = await startFixtureProcess({ transport: 'sse', readyTimeoutMs: 90_000 });
  try {
    await withProxy({ servers: [{ name: 'old', url: fx.url, transport: 'sse' }] }, async (p, c) => {
      assert.equal(p.toolCount(), 6);
      assert.equal(p.upstreamStatus()[0].transport, 'sse');
      const rt = JSON.parse(resultText(await c.callTool('retrieve_tools', { query: 'fails on purpose', limit: 1 })));
      assert.equal(rt.tools[0].name, 'old:fail');
      const r = await c.callTool('call_tool', { name: 'old:echo', arguments: { input: 'sse1' } });
      assert.deepEqual(r.structuredContent, { output: 'sse1' });
    });
  } finally {
    await fx.stop();
  }
});

test('HTTP upstream that goes away and comes back on the same port is reconnected and re-indexed', async () => {
  let fx = await startFixtureProcess({ transport: 'streamable-http', readyTimeoutMs: 90_000 });
  const port = fx.port;
  try {
    await withProxy(
      {
        servers: [{ name: 'web', url: fx.url, transport: 'streamable-http' }],
        call_timeout_ms: 3000,
        health_interval_ms: 200,
        health_timeout_ms: 1000,
      },
      async (p, c) => {
        const n = p.toolCount();
        assert.equal(n, 6);
        assert.equal(p.upstreamStatus()[0].transport, 'streamable-http');
        const ok1 = await c.callTool('call_tool', { name: 'web:ping', arguments: {} });
        assert.equal(ok1.isError, undefined, resultText(ok1));
        await fx.stop();
        await waitFor(
          'web lost',
          () => p.upstreamStatus()[0],
          (s) => !s.connected && s.restarts >= 1,
        );
        assert.equal(p.toolCount(), 0, 'tools of a lost upstream leave the index');
        fx = await startFixtureProcess({ transport: 'streamable-http', port, readyTimeoutMs: 90_000 });
        await waitFor(
          'web back',
          () => p.upstreamStatus()[0],
          (s) => s.connected,
        );
        assert.equal(p.toolCount(), n);
        const ok2 = await c.callTool('call_tool', { name: 'web:ping', arguments: {} });
        assert.equal(ok2.isError, undefined, resultText(ok2));
        assert.notEqual(pingInstance(resultText(ok2)), pingInstance(resultText(ok1)));
      },
    );
  } finally {
    await fx.stop();
  }
});
