/**
 * A small pass-through MCP gateway for the gate's tests: lists every upstream tool directly as
 * `<server>__<tool>` and forwards calls (with `_meta` and cancellation). Served on loopback HTTP
 * (/mcp), upstreams from a reference-proxy config file. Built on the reference proxy's
 * upstream handling (ProxyCore), so the correct gateway passes the gate; each `--break` flag
 * plants one bug the gate must catch:
 *   no-respawn     a lost upstream child is never started again
 *   mix-sessions   calls are tracked by JSON-RPC id across sessions: a session can get another's result
 *   exit-on-death  the gateway exits when an upstream dies
 *   leak-container on shutdown it starts one more copy of its first `docker run` upstream, detached
 *                  (`docker run -d -i`: stdin held open by the engine), and leaves it running
 * Run: node --import tsx test/gate/gateway.ts --config FILE --port N [--break X] (the tests start its bundle: test/script-args.ts)
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Server, ProtocolError, createMcpHandler, type McpServerFactory } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { loadProxyConfig } from '../../pipeline/proxy/config.ts';
import { ProxyCore } from '../../pipeline/proxy/core.ts';
import { legacySessions } from '../../pipeline/proxy/sessions.ts';
import type { CallResult } from '../../pipeline/mcp/client.ts';

const { values } = parseArgs({ options: { config: { type: 'string' }, port: { type: 'string' }, break: { type: 'string' } } });
const broken = values.break ?? '';
if (!['', 'no-respawn', 'mix-sessions', 'exit-on-death', 'leak-container'].includes(broken)) {
  process.stderr.write(`gateway: unknown --break ${JSON.stringify(broken)}\n`);
  process.exit(2);
}
const log = (m: string) => {
  process.stderr.write(`gateway: ${m}\n`);
  if (broken === 'exit-on-death' && / lost: /.test(m)) {
    process.stderr.write('gateway: an upstream died, exiting (planted bug)\n');
    process.exit(3);
  }
};
const config = loadProxyConfig(values.config!);
const core = new ProxyCore(config, log, { sabotage: new Set(broken === 'no-respawn' ? (['no-reconnect'] as const) : []) });
await core.start();

const SEP = '__';
const inflight = new Map<string, Promise<CallResult>>();

const factory: McpServerFactory = () => {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the low-level Server serves the upstream schemas as they are
  const server = new Server({ name: 'gate-test-gateway', version: '0.0.1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(
    'tools/list',
    () =>
      ({
        tools: core.upstreams.flatMap((u) => u.tools.map((t) => ({ ...t, name: `${u.name}${SEP}${t.name}` }))),
      }) as never,
  );
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const p = (request as { params?: { name?: unknown; arguments?: unknown; _meta?: Record<string, unknown> } }).params ?? {};
    const name = typeof p.name === 'string' ? p.name : '';
    const i = name.indexOf(SEP);
    if (i <= 0) throw new ProtocolError(-32602, `Unknown tool: ${name}`);
    const meta = p._meta
      ? Object.fromEntries(Object.entries(p._meta).filter(([k]) => k !== 'progressToken' && !k.startsWith('io.modelcontextprotocol/')))
      : undefined;
    // the caller's progress token is answered by this hop: the upstream's progress goes back under it
    const token = p._meta?.progressToken;
    const progress =
      typeof token === 'string' || typeof token === 'number'
        ? (x: Record<string, unknown>) =>
            void ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...x, progressToken: token } } as never).catch(() => {})
        : undefined;
    const run = () =>
      core.callTool(
        { name: `${name.slice(0, i)}:${name.slice(i + SEP.length)}`, arguments: p.arguments ?? {} },
        { meta, signal: ctx.mcpReq.signal, progress: progress as never },
      );
    if (broken !== 'mix-sessions') return (await run()) as never;
    // planted bug: one table of calls in flight keyed by the JSON-RPC id alone, shared by every session
    const key = String(ctx.mcpReq.id);
    const pending = inflight.get(key);
    if (pending) return (await pending) as never;
    const mine = run().finally(() => inflight.delete(key));
    inflight.set(key, mine);
    return (await mine) as never;
  });
  return server;
};

const handler = createMcpHandler(factory, { legacy: 'stateless' });
const node = toNodeHandler(handler);
const sessions = legacySessions(factory, (req, res, body) => node(req, res, body), log);
const http = createServer((req, res) => {
  if ((req.url ?? '').split('?')[0] !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  sessions.handle(req, res).catch((e: Error) => {
    log(`request failed: ${e.message}`);
    if (!res.headersSent) res.writeHead(500).end();
  });
});
http.listen(Number(values.port ?? 0), '127.0.0.1', () =>
  log(`listening on http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`),
);
/** planted bug: a container of the gateway's own making that outlives it */
function leakContainer(): void {
  const up = config.servers.find((s) => 'command' in s && s.args.includes('run'));
  if (!up || !('command' in up)) return;
  const args = [...up.args];
  args.splice(args.indexOf('run') + 1, 0, '-d');
  const r = spawnSync(up.command, args, { encoding: 'utf8', timeout: 60_000 });
  log(`leak-container: started ${r.stdout.trim().slice(0, 12) || `nothing (${r.stderr.trim()})`} (planted bug)`);
}
const stop = async () => {
  if (broken === 'leak-container') leakContainer();
  await sessions.close();
  await core.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
