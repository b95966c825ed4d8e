/** The one HTTP hygiene module shared by the fixture and the proxy (pipeline/util/http.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { closeServer, isLoopbackHost, listen, sendJsonRpcError, urlHost } from '../../pipeline/util/http.ts';

test('isLoopbackHost: all of 127/8, ::1 in any spelling, IPv4-mapped loopback, localhost; nothing else', () => {
  for (const h of [
    '127.0.0.1',
    '127.1.2.3',
    'localhost',
    'LOCALHOST',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '[::ffff:127.0.0.2]',
  ]) {
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
  await assert.rejects(
    listen(second, port, '127.0.0.1', 'probe'),
    (e: NodeJS.ErrnoException) => e.code === 'EADDRINUSE' && e.message === `probe failed: port 127.0.0.1:${port} is in use`,
  );
  await closeServer(server);
  await assert.rejects(fetch(`http://127.0.0.1:${port}/mcp`));
});

test('originPolicy + hostGuard: localhost origins plus extras; a foreign Origin gets 403 naming it; CORS echoes one origin, never *', async () => {
  const { originPolicy, hostGuard } = await import('../../pipeline/util/http-guard.ts');
  const p = originPolicy(['app.internal.example']);
  for (const o of ['http://localhost:3000', 'http://127.0.0.1', 'http://[::1]:8080', 'https://app.internal.example'])
    assert.equal(p.allows(o), true, o);
  for (const o of ['https://evil.example', 'http://localhost.evil.example', 'null']) assert.equal(p.allows(o), false, o);
  assert.equal(hostGuard('0.0.0.0'), null, 'no Host guard on a non-loopback bind');
  const guard = hostGuard('127.0.0.1')!;
  const server = createServer((req, res) => {
    if (!guard(req, res) || !p.guard(req, res)) return;
    res.writeHead(200, p.cors(req));
    res.end('ok');
  });
  const port = await listen(server, 0, '127.0.0.1');
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    const evil = await fetch(url, { headers: { origin: 'https://evil.example' } });
    assert.equal(evil.status, 403);
    assert.deepEqual(await evil.json(), {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Forbidden: Origin "https://evil.example" is not allowed' },
    });
    const local = await fetch(url, { headers: { origin: 'http://localhost:5173' } });
    assert.equal(local.status, 200);
    assert.equal(local.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    assert.equal(local.headers.get('vary'), 'Origin');
    await local.text();
    const none = await fetch(url);
    assert.equal(none.status, 200, 'no Origin (a non-browser client) is served');
    assert.equal(none.headers.get('access-control-allow-origin'), null);
    await none.text();
  } finally {
    await closeServer(server);
  }
});
