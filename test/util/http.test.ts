/** The one HTTP hygiene module shared by the fixture and the proxy (pipeline/util/http.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { closeServer, isLoopbackHost, listen, sendJsonRpcError, urlHost } from '../../pipeline/util/http.ts';

test('isLoopbackHost: all of 127/8, ::1 in any spelling, IPv4-mapped loopback, localhost; nothing else', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '[::ffff:127.0.0.2]']) {
    assert.equal(isLoopbackHost(h), true, h);
  }
  // the two checks this replaces disagreed here: the fixture's missed 127.0.0.2, the proxy's took any "127." prefix
  for (const h of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', '127.evil.example', 'localhost.evil.example', '::2', '']) {
    assert.equal(isLoopbackHost(h), false, h);
  }
  assert.equal(urlHost('::1'), '[::1]');
  assert.equal(urlHost('127.0.0.1'), '127.0.0.1');
});

test('listen on port 0, a JSON-RPC error reply over real HTTP, close; a taken port is a clear error', async () => {
  const server = createServer((_req, res) => sendJsonRpcError(res, 403, -32000, 'Forbidden: test', { 'X-Test': '1' }));
  const port = await listen(server, 0, '127.0.0.1');
  assert.ok(port > 0);
  const r = await fetch(`http://127.0.0.1:${port}/mcp`);
  assert.equal(r.status, 403);
  assert.equal(r.headers.get('x-test'), '1');
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.deepEqual(await r.json(), { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: test' } });
  const second = createServer();
  await assert.rejects(listen(second, port, '127.0.0.1', 'probe'), (e: NodeJS.ErrnoException) => e.code === 'EADDRINUSE' && e.message === `probe failed: cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
  await closeServer(server);
  await assert.rejects(fetch(`http://127.0.0.1:${port}/mcp`));
});
