/**
 * The proxy over real upstreams (server-memory, server-everything, the project's fixture, all
 * over stdio), served on real loopback HTTP, spoken to with the SDK client in both eras.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { connectMcp, resultText, type McpConnection, type WireTool } from '../../pipeline/mcp/client.ts';
import { createBm25Retriever } from '../../pipeline/retrieval/bm25f.ts';
import { getArm } from '../../arms/registry.ts';
import { BASELINE_ARM_ID } from '../../pipeline/constants.ts';
import {
  PROXY_TOOL_DESCRIPTIONS,
  USAGE_INSTRUCTIONS,
  proxyToolSchemas,
  startProxy,
  validateProxyConfig,
  type ProxyHandle,
} from '../../pipeline/proxy/index.ts';
import { toolRecordOf } from '../../pipeline/proxy/catalog.ts';
import { callJson, connectProxy, everythingServer, fixtureServer, memoryServer, quiet, rawInitialize, tempDir } from './helpers.ts';

/** tools are indexed (and menus rendered) like the baseline arm */
const baselineArm = getArm(BASELINE_ARM_ID);

const KEY = 'test-key-7f3a';
const tmp = tempDir('proxy');
const servers = [memoryServer('memory', join(tmp.dir, 'memory.jsonl')), everythingServer('everything'), fixtureServer('fixture')];
let proxy: ProxyHandle;
let client: McpConnection;
/** every upstream tool, listed directly (not through the proxy) */
const direct = new Map<string, WireTool>();

before(async () => {
  const config = validateProxyConfig(
    { servers, api_key: KEY, listen: { host: '127.0.0.1', port: 0 }, connect_timeout_ms: 90_000 },
    'test',
    {},
  );
  const [started, listed] = await Promise.allSettled([
    startProxy(config, { transport: 'http', log: quiet() }),
    Promise.all(
      servers.map(async (s) => {
        const c = await connectMcp({ kind: 'stdio', command: s.command, args: s.args, env: s.env }, { timeoutMs: 90_000 });
        try {
          for (const t of await c.listAllTools()) direct.set(`${s.name}:${t.name}`, t);
        } finally {
          await c.close();
        }
      }),
    ),
  ]);
  if (started.status === 'fulfilled') proxy = started.value;
  if (started.status === 'rejected') throw started.reason;
  if (listed.status === 'rejected') throw listed.reason;
  client = await connectProxy(proxy);
});

after(async () => {
  await client?.close();
  await proxy?.close();
  tmp.cleanup();
});

test('tools/list: the four proxy tools; every upstream tool indexed as server:tool', async () => {
  const tools = await client.listAllTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    ['retrieve_tools', 'call_tool', 'describe_tool', 'upstream_servers'],
  );
  const schemas = proxyToolSchemas(15, 100);
  for (const t of tools) {
    const name = t.name as keyof typeof PROXY_TOOL_DESCRIPTIONS;
    assert.equal(t.description, PROXY_TOOL_DESCRIPTIONS[name]);
    assert.deepEqual(t.inputSchema, schemas[name], `${name}: the schema is served exactly as written`);
  }
  assert.deepEqual((tools[0].inputSchema as { required: string[] }).required, ['query']);
  assert.ok(direct.size > 20, `direct listing found ${direct.size} tools`);
  assert.equal(proxy.toolCount(), direct.size);
  const st = proxy.upstreamStatus();
  assert.deepEqual(
    st.map((s) => [s.name, s.state, s.tool_count, s.restarts]),
    servers.map((s) => [s.name, 'connected', [...direct.keys()].filter((k) => k.startsWith(`${s.name}:`)).length, 0]),
  );
  for (const s of st) assert.ok(Number.isInteger(s.pid) && s.pid! > 0);
});

test('retrieve_tools full: ranking equals the offline BM25 over the same tools; schemas are the upstream ones', async () => {
  const query = 'create entities in the knowledge graph';
  const { json, result } = await callJson(client, 'retrieve_tools', { query, limit: 5 });
  assert.equal(result.isError, undefined);
  assert.equal(result.content?.length, 1);
  assert.deepEqual(Object.keys(json), ['query', 'total', 'tools', 'usage_instructions']);
  assert.equal(json.query, query);
  assert.equal(json.total, 5);
  assert.equal(json.tools.length, 5);
  assert.equal(json.usage_instructions, USAGE_INSTRUCTIONS.full);
  assert.equal(json.tools[0].name, 'memory:create_entities');
  // offline: the same index documents, the same retriever
  const r = createBm25Retriever();
  r.build([...direct.entries()].map(([id, t]) => baselineArm.indexDoc(toolRecordOf(id.split(':')[0], t))));
  const offline = r.search(query, 5);
  assert.deepEqual(
    json.tools.map((t: { name: string }) => t.name),
    offline.map((h) => h.tool_id),
  );
  for (let i = 0; i < 5; i++) {
    const t = json.tools[i];
    assert.deepEqual(Object.keys(t), ['name', 'server', 'score', 'description', 'inputSchema']);
    assert.equal(t.server, t.name.split(':')[0]);
    assert.ok(Math.abs(t.score - offline[i].score) < 1e-4, `score ${t.score} vs ${offline[i].score}`);
    const up = direct.get(t.name)!;
    assert.equal(t.description, up.description);
    assert.deepEqual(t.inputSchema, up.inputSchema);
  }
});

test('retrieve_tools compact: signature + first sentence; default limit; bad input is a tool error', async () => {
  const { json } = await callJson(client, 'retrieve_tools', {
    query: 'wait some milliseconds before answering',
    limit: 3,
    detail: 'compact',
  });
  assert.equal(json.usage_instructions, USAGE_INSTRUCTIONS.compact);
  assert.deepEqual(json.tools[0], {
    name: 'fixture:slow',
    score: json.tools[0].score,
    sig: 'slow(ms:int, progress_ms?:int)',
    desc: 'Waits the given number of milliseconds (0..600000) before answering; cancellable.',
  });
  assert.deepEqual(Object.keys(json.tools[0]), ['name', 'score', 'sig', 'desc']);
  assert.ok(json.tools[0].score > 0);
  for (let i = 1; i < json.tools.length; i++) assert.ok(json.tools[i - 1].score >= json.tools[i].score);
  const memo = (await callJson(client, 'retrieve_tools', { query: 'delete observations from entities', detail: 'compact', limit: 1 })).json;
  assert.equal(memo.tools[0].name, 'memory:delete_observations');
  assert.equal(memo.tools[0].sig, 'delete_observations(deletions:arr)');
  // no limit: config tools_limit (15) caps a broad query
  const broadQuery = 'returns text number list entities message resource';
  const r = createBm25Retriever();
  r.build([...direct.entries()].map(([id, t]) => baselineArm.indexDoc(toolRecordOf(id.split(':')[0], t))));
  assert.ok(r.search(broadQuery, 1000).length > 15, 'the broad query matches more than 15 tools offline');
  const broad = (await callJson(client, 'retrieve_tools', { query: broadQuery })).json;
  assert.equal(broad.total, 15);
  assert.equal(broad.tools.length, 15);
  const none = (await callJson(client, 'retrieve_tools', { query: 'zzzqqq xyzzy' })).json;
  assert.deepEqual(none.tools, []);
  assert.equal(none.total, 0);
  for (const bad of [{ query: '' }, { query: 'x', detail: 'verbose' }, { query: 'x', limit: 0 }, {}]) {
    const r = await client.callTool('retrieve_tools', bad);
    assert.equal(r.isError, true, JSON.stringify(bad));
  }
});

test('call_tool forwards to the upstream; upstream tool errors stay tool errors; unknown names are clear errors', async () => {
  const echo = await client.callTool('call_tool', { name: 'fixture:echo', arguments: { input: 'abc123' } });
  assert.equal(echo.isError, undefined);
  assert.deepEqual(echo.structuredContent, { output: 'abc123' });
  // a real side effect on a real upstream
  const created = await client.callTool('call_tool', {
    name: 'memory:create_entities',
    arguments: { entities: [{ name: 'proxy_test_entity', entityType: 'thing', observations: ['seen through the proxy'] }] },
  });
  assert.equal(created.isError, undefined, resultText(created));
  const graph = await client.callTool('call_tool', { name: 'memory:read_graph', arguments: {} });
  assert.match(resultText(graph), /proxy_test_entity/);
  assert.match(resultText(graph), /seen through the proxy/);

  const toolErr = await client.callTool('call_tool', { name: 'fixture:fail', arguments: { kind: 'tool_error', message: 'boom42' } });
  assert.equal(toolErr.isError, true);
  assert.match(resultText(toolErr), /boom42/);
  const rpcErr = await client.callTool('call_tool', {
    name: 'fixture:fail',
    arguments: { kind: 'rpc_error', code: -32099, message: 'rpcboom' },
  });
  assert.equal(rpcErr.isError, true);
  assert.match(resultText(rpcErr), /^call_tool fixture:fail: upstream 'fixture' rejected tools\/call 'fail': .*rpcboom.* \(code -32099\)$/);

  const cases: Array<[unknown, RegExp]> = [
    ['nosuch:tool', /unknown tool "nosuch:tool" \(no upstream named 'nosuch'; upstreams: memory, everything, fixture\)/],
    ['fixture:nosuch', /unknown tool 'fixture:nosuch': upstream 'fixture' has no tool named 'nosuch'/],
    ['echo', /invalid tool name "echo" \(expected "server:tool"/],
  ];
  for (const [name, re] of cases) {
    const r = await client.callTool('call_tool', { name, arguments: {} });
    assert.equal(r.isError, true);
    assert.match(resultText(r), re);
  }
});

test('describe_tool: full schema and description; unknown is a tool error', async () => {
  const { json } = await callJson(client, 'describe_tool', { name: 'fixture:echo' });
  const up = direct.get('fixture:echo')!;
  assert.equal(json.name, 'fixture:echo');
  assert.equal(json.server, 'fixture');
  assert.equal(json.description, up.description);
  assert.deepEqual(json.inputSchema, up.inputSchema);
  assert.deepEqual(json.outputSchema, up.outputSchema);
  const r = await client.callTool('describe_tool', { name: 'fixture:missing' });
  assert.equal(r.isError, true);
  assert.match(resultText(r), /unknown tool "fixture:missing"/);
});

test('upstream_servers list reports every upstream; bad action/name are tool errors', async () => {
  const { json } = await callJson(client, 'upstream_servers', {});
  assert.equal(json.total_tools, direct.size);
  assert.deepEqual(
    json.servers.map((s: { name: string; connected: boolean; transport: string }) => [s.name, s.connected, s.transport]),
    [
      ['memory', true, 'stdio'],
      ['everything', true, 'stdio'],
      ['fixture', true, 'stdio'],
    ],
  );
  const r = await client.callTool('upstream_servers', { action: 'restart', name: 'nope' });
  assert.equal(r.isError, true);
  assert.match(resultText(r), /no upstream named "nope" \(upstreams: memory, everything, fixture\)/);
});

test('both protocol eras get identical answers', async () => {
  const modern = await connectProxy(proxy, '2026-07-28');
  try {
    assert.equal(modern.protocolVersion, '2026-07-28');
    assert.equal(client.protocolVersion, '2025-11-25');
    const args = { query: 'read the whole knowledge graph', limit: 4, detail: 'compact' };
    assert.equal(resultText(await modern.callTool('retrieve_tools', args)), resultText(await client.callTool('retrieve_tools', args)));
  } finally {
    await modern.close();
  }
});

test('HTTP: API key required (401), X-API-Key or Bearer accepted, foreign Origin/Host 403, /healthz, unknown path 404', async () => {
  const noKey = await rawInitialize(proxy.url, {});
  assert.equal(noKey.status, 401);
  assert.match(noKey.headers.get('www-authenticate') ?? '', /^Bearer/);
  assert.match((await noKey.json()).error, /missing API key/);
  const wrong = await rawInitialize(proxy.url, { 'X-API-Key': 'nope' });
  assert.equal(wrong.status, 401);
  assert.equal((await wrong.json()).error, 'wrong API key');
  const wrongBearer = await rawInitialize(proxy.url, { Authorization: `Bearer ${KEY}x` });
  assert.equal(wrongBearer.status, 401);
  await wrongBearer.arrayBuffer();
  for (const h of [{ 'X-API-Key': KEY }, { Authorization: `Bearer ${KEY}` }] as Record<string, string>[]) {
    const r = await rawInitialize(proxy.url, h);
    assert.equal(r.status, 200, JSON.stringify(h));
    assert.match(await r.text(), /"serverInfo":\{"name":"mcpgauge-proxy"/);
  }
  const evil = await rawInitialize(proxy.url, { 'X-API-Key': KEY, Origin: 'https://evil.example' });
  assert.equal(evil.status, 403);
  // the same policy and the same answer as the fixture (pipeline/util/http.ts originPolicy)
  assert.deepEqual(await evil.json(), {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: 'Forbidden: Origin "https://evil.example" is not allowed' },
  });
  const local = await rawInitialize(proxy.url, { 'X-API-Key': KEY, Origin: 'http://localhost:5173' });
  assert.equal(local.status, 200);
  assert.equal(local.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  await local.arrayBuffer();
  // a browser preflight carries no key: answered before the key check, for a loopback origin only
  const pre = await fetch(proxy.url, {
    method: 'OPTIONS',
    headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  assert.match(pre.headers.get('access-control-allow-headers') ?? '', /X-API-Key/);
  // DNS rebinding: a foreign Host header on the loopback listener
  const u = new URL(proxy.url);
  const hostStatus = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: u.port,
        path: '/mcp',
        method: 'POST',
        headers: { Host: 'evil.example', 'X-API-Key': KEY, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
  assert.equal(hostStatus, 403);
  const base = proxy.url.replace(/\/mcp$/, '');
  // /healthz: liveness for anyone, the counts only with the key (test/hostile/proxy-limits.test.ts: Host check)
  const hz = await fetch(`${base}/healthz`);
  assert.equal(hz.status, 200);
  assert.deepEqual(await hz.json(), { status: 'ok' });
  const hzKey = await fetch(`${base}/healthz`, { headers: { 'X-API-Key': KEY } });
  assert.deepEqual(await hzKey.json(), { status: 'ok', tools: direct.size, upstreams: { total: 3, connected: 3 } });
  const nf = await fetch(`${base}/other`);
  assert.equal(nf.status, 404);
  await nf.arrayBuffer();
  // the SDK client without a key is refused too
  await assert.rejects(connectMcp({ kind: 'http', url: proxy.url }, { timeoutMs: 5000 }));
});

test('HTTP: a batch and a JSON body that is not JSON-RPC get 400 + -32600 (the SDK would run the batch, and say -32700), in a legacy session too', async () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'X-API-Key': KEY, ...headers },
      body,
    });
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const batch = await post(JSON.stringify([ping, { ...ping, id: 2 }]));
  assert.equal(batch.status, 400);
  assert.deepEqual(await batch.json(), {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'Invalid Request: JSON-RPC batches are not supported' },
  });
  const init = await rawInitialize(proxy.url, { 'X-API-Key': KEY });
  const sid = init.headers.get('mcp-session-id');
  await init.arrayBuffer();
  assert.ok(sid, 'a legacy initialize opens a session');
  for (const headers of [{}, { 'Mcp-Session-Id': sid!, 'MCP-Protocol-Version': '2025-11-25' }] as Record<string, string>[]) {
    const bad = await post(JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 42 }), headers);
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), {
      jsonrpc: '2.0',
      id: 'x',
      error: { code: -32600, message: 'Invalid Request: method must be a string' },
    });
  }
});
