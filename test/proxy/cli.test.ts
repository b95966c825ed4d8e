/** `mcpgauge proxy` as a real process: HTTP (port 0, key from env / flag) and stdio. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connectMcp, resultText } from '../../pipeline/mcp/client.ts';
import { MCPGAUGE_BIN, REPO, memoryServer, rawInitialize, tempDir, waitFor } from './helpers.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('CLI over HTTP: prints the URL for --port 0, key from MCPGAUGE_PROXY_API_KEY over config api_key, SIGTERM stops upstreams', async () => {
  const t = tempDir('proxycli-http');
  const cfg = t.write('proxy.json', { servers: [memoryServer('mem')], api_key: 'from-config' });
  const child = spawn(process.execPath, [MCPGAUGE_BIN, 'proxy', '--config', cfg, '--port', '0'], {
    cwd: REPO,
    env: { ...process.env, MCPGAUGE_PROXY_API_KEY: 'from-env' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stdout += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  try {
    const url = await waitFor(
      'listening line',
      () => /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stderr)?.[1],
      (u) => !!u,
      90_000,
    );
    assert.ok(url);
    assert.match(stderr, /upstream 'mem' connected/);
    assert.equal((await rawInitialize(url, { 'X-API-Key': 'from-config' })).status, 401, 'env key wins over config');
    const c = await connectMcp({ kind: 'http', url, headers: { Authorization: 'Bearer from-env' } });
    const st = JSON.parse(resultText(await c.callTool('upstream_servers', {})));
    const upstreamPid = st.servers[0].pid as number;
    assert.ok(alive(upstreamPid));
    const rt = JSON.parse(resultText(await c.callTool('retrieve_tools', { query: 'search nodes in the knowledge graph', limit: 2 })));
    assert.equal(rt.tools[0].name, 'mem:search_nodes');
    await c.close();
    child.kill('SIGTERM');
    assert.equal(await exited, 143);
    await waitFor(
      'upstream child gone',
      () => alive(upstreamPid),
      (a) => !a,
      5000,
    );
    assert.equal(stdout, '', 'nothing on stdout in HTTP mode');
  } finally {
    child.kill('SIGKILL');
    t.cleanup();
  }
});

test('CLI over stdio: MCP on stdin/stdout (logs on stderr); closing stdin ends the proxy and its upstreams', async () => {
  const t = tempDir('proxycli-stdio');
  const cfg = t.write('proxy.json', { servers: [memoryServer('mem', `${t.dir}/memory.jsonl`)] });
  try {
    const c = await connectMcp(
      { kind: 'stdio', command: process.execPath, args: [MCPGAUGE_BIN, 'proxy', '--config', cfg, '--transport', 'stdio'], cwd: REPO },
      { timeoutMs: 90_000 },
    );
    const proxyPid = c.pid!;
    assert.deepEqual(
      (await c.listAllTools()).map((x) => x.name),
      ['retrieve_tools', 'call_tool', 'describe_tool', 'upstream_servers'],
    );
    const rt = JSON.parse(
      resultText(await c.callTool('retrieve_tools', { query: 'open specific nodes by name', limit: 1, detail: 'compact' })),
    );
    assert.deepEqual(
      rt.tools.map((x: { name: string; sig: string }) => [x.name, x.sig]),
      [['mem:open_nodes', 'open_nodes(names:arr)']],
    );
    const made = await c.callTool('call_tool', {
      name: 'mem:create_entities',
      arguments: { entities: [{ name: 'viaStdio', entityType: 't', observations: [] }] },
    });
    assert.equal(made.isError, undefined, resultText(made));
    assert.match(resultText(await c.callTool('call_tool', { name: 'mem:read_graph', arguments: {} })), /viaStdio/);
    const upstreamPid = JSON.parse(resultText(await c.callTool('upstream_servers', {}))).servers[0].pid as number;
    assert.match(c.stderrText(), /mcpgauge proxy: serving MCP on stdio/);
    await c.close();
    await waitFor(
      'proxy and upstream gone',
      () => [alive(proxyPid), alive(upstreamPid)],
      (v) => !v[0] && !v[1],
      10_000,
    );
  } finally {
    t.cleanup();
  }
});
