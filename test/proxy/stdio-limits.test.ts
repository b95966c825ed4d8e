/**
 * The proxy over stdio with an over-long message (real `mcpgauge proxy --transport stdio` over a
 * real fixture upstream): the message gets a JSON-RPC error, the proxy keeps serving, and when
 * the client closes stdin the proxy exits and its upstream child is gone.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { STDIO_MAX_MESSAGE_BYTES } from '../../pipeline/mcp/stdio-server.ts';
import { alive, waitDead } from '../live/helpers.ts';
import { INIT, INITIALIZED, callMsg, hugeCall, killAllRaw, rawNode } from '../fixture/helpers.ts';
import { fixtureServer, MCPGAUGE_BIN, tempDir } from './helpers.ts';

after(killAllRaw);

test('proxy stdio: a message over the limit gets an error, serving goes on, stdin EOF stops the proxy and reaps its upstream', async () => {
  const t = tempDir('proxy-stdio-limit');
  try {
    const cfg = t.write('proxy.json', { servers: [fixtureServer()], connect_timeout_ms: 120_000, health_interval_ms: 0 });
    const p = rawNode([MCPGAUGE_BIN, 'proxy', '--config', cfg, '--transport', 'stdio']);
    p.send({ id: 1, ...INIT });
    await p.response(1);
    p.send(INITIALIZED);
    p.send(callMsg(2, 'upstream_servers', {}));
    const status = JSON.parse(((await p.response(2)).result as { content: { text: string }[] }).content[0].text) as {
      servers: { pid: number }[];
    };
    const upstreamPid = status.servers[0].pid;
    assert.ok(upstreamPid > 0 && alive(upstreamPid));

    await p.write(hugeCall(7, STDIO_MAX_MESSAGE_BYTES + 512 * 1024));
    const r = (await p.response(7, 60_000)) as { error?: { code: number; message: string } };
    assert.equal(r.error?.code, -32600, JSON.stringify(r));
    assert.match(r.error!.message, /exceeds the stdio limit/);
    p.send({ id: 8, method: 'tools/list' });
    const list = (await p.response(8)) as { result: { tools: { name: string }[] } };
    assert.ok(
      list.result.tools.some((x) => x.name === 'retrieve_tools'),
      'still serving after the over-long message',
    );

    p.child.stdin!.end();
    const exit = await Promise.race([p.exit, new Promise<'still running'>((res) => setTimeout(() => res('still running'), 30_000))]);
    assert.notEqual(exit, 'still running', `the proxy must exit when its client goes away; stderr: ${p.stderr()}`);
    assert.deepEqual(await waitDead([upstreamPid], 10_000), [], 'the upstream child is reaped');
  } finally {
    t.cleanup();
  }
});
