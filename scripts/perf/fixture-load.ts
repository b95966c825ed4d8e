/**
 * bench-perf section "fixture-load": echo throughput and latency of the mcpfixture server,
 * printed as ratios against two peers measured in the same run:
 *   (a) a minimal echo server built on the official SDK v2 (McpServer + createMcpHandler /
 *       serveStdio), (b) a bare node:http (or bare stdio) JSON-RPC echo with no MCP layer.
 * Cells: stateless streamable HTTP with 64 concurrent clients (keep-alive, 2026-07-28 requests
 * with the required headers and _meta envelope) and stdio with 64 requests in flight.
 * Rounds are interleaved (fixture, sdk, bare, fixture, ...) so machine load hits all alike.
 * Targets (not asserted): >= 1.0x the SDK server, >= 0.5x bare.
 * Soak: 100,000 unique-input echo calls at 256 concurrency against the fixture (stateless
 * HTTP); every response must match its request (id and echoed input), 0 errors.
 * Loopback only; every child is stopped at the end; ~2-3 minutes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, Agent } from 'node:http';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SELF = resolve(import.meta.dirname, 'fixture-load.ts');
const MODERN = '2026-07-28';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

// ---------------------------------------------------------------- peer servers (child roles)
async function serveRole(role: string): Promise<void> {
  if (role === 'bare-http') {
    const srv = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body: string;
        try {
          const m = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          const input = m.params?.arguments?.input;
          body = JSON.stringify({
            jsonrpc: '2.0',
            id: m.id,
            result: { content: [{ type: 'text', text: JSON.stringify({ output: input }) }], structuredContent: { output: input } },
          });
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        } catch {
          body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
          res.writeHead(400, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        }
        res.end(body);
      });
    });
    srv.keepAliveTimeout = 65_000;
    srv.listen(0, '127.0.0.1', () => process.stderr.write(`listening on http://127.0.0.1:${(srv.address() as AddressInfo).port}\n`));
    return;
  }
  if (role === 'bare-stdio') {
    const rl = createInterface({ input: process.stdin });
    rl.on('line', (line) => {
      if (!line.trim()) return;
      const m = JSON.parse(line);
      if (m.id === undefined) return;
      const input = m.params?.arguments?.input;
      const result =
        m.method === 'tools/call'
          ? { content: [{ type: 'text', text: JSON.stringify({ output: input }) }], structuredContent: { output: input } }
          : { supportedVersions: [MODERN], capabilities: { tools: {} }, resultType: 'complete', ttlMs: 0, cacheScope: 'private' };
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: m.id, result })}\n`);
    });
    rl.on('close', () => process.exit(0));
    return;
  }
  const { McpServer, createMcpHandler } = await import('@modelcontextprotocol/server');
  const { z } = await import('zod');
  const factory = () => {
    const s = new McpServer({ name: 'sdk-echo', version: '1.0.0' });
    s.registerTool(
      'echo',
      { description: 'Echo back the input', inputSchema: z.object({ input: z.string() }), outputSchema: z.object({ output: z.string() }) },
      async ({ input }) => ({
        content: [{ type: 'text' as const, text: JSON.stringify({ output: input }) }],
        structuredContent: { output: input },
      }),
    );
    return s;
  };
  if (role === 'sdk-http') {
    const { toNodeHandler } = await import('@modelcontextprotocol/node');
    const handler = toNodeHandler(createMcpHandler(factory));
    const srv = createServer((req, res) => void handler(req, res));
    srv.keepAliveTimeout = 65_000;
    srv.listen(0, '127.0.0.1', () => process.stderr.write(`listening on http://127.0.0.1:${(srv.address() as AddressInfo).port}\n`));
    return;
  }
  if (role === 'sdk-stdio') {
    const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
    serveStdio(factory);
    return;
  }
  throw new Error(`unknown role ${role}`);
}

// ---------------------------------------------------------------- process handling
interface Child {
  name: string;
  proc: ChildProcess;
  port?: number;
  stderr: () => string;
}
const children: Child[] = [];
function stopAll(): void {
  for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
}
process.on('exit', stopAll);

function fixtureArgs(transport: string): string[] {
  return [resolve(ROOT, 'bin/mcpfixture.mjs'), '--transport', transport, '--stateless', '--port', '0', '--host', '127.0.0.1'];
}

async function launch(name: string, argv: string[], http: boolean): Promise<Child> {
  const env = { ...process.env };
  for (const k of ['MCP_TRANSPORT', 'PORT', 'STATELESS', 'BACKEND_MODE', 'FAULT_METHODS', 'MCPFIXTURE_HOST']) delete env[k];
  const proc = spawn(process.execPath, argv, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (d: string) => {
    if (err.length < 100_000) err += d;
  });
  const c: Child = { name, proc, stderr: () => err };
  children.push(c);
  if (http) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const m = /listening on http:\/\/[^\s:]+:(\d+)/.exec(err);
      if (m) {
        c.port = Number(m[1]);
        break;
      }
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`${name} did not start: ${err.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return c;
}

// ---------------------------------------------------------------- load generators
interface RunResult {
  calls: number;
  errors: number;
  mismatches: number;
  seconds: number;
  lat: Float64Array;
}

let uniq = 0;
function nextInput(): string {
  return `in${(uniq++).toString(36)}x${process.pid}`;
}

function pct(sorted: Float64Array, p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** `concurrency` loops of POST tools/call over keep-alive sockets, for `ms` or `totalCalls`. */
async function httpLoad(port: number, concurrency: number, opts: { ms?: number; totalCalls?: number }): Promise<RunResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const lat: number[] = [];
  let calls = 0;
  let errors = 0;
  let mismatches = 0;
  let issued = 0;
  let id = 0;
  const t0 = performance.now();
  const stopAt = opts.ms ? t0 + opts.ms : Infinity;
  const one = (): Promise<void> =>
    new Promise((done) => {
      const input = nextInput();
      const rid = ++id;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: rid,
        method: 'tools/call',
        params: { name: 'echo', arguments: { input }, _meta: ENVELOPE },
      });
      const start = performance.now();
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          agent,
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'Content-Length': Buffer.byteLength(body),
            'MCP-Protocol-Version': MODERN,
            'Mcp-Method': 'tools/call',
            'Mcp-Name': 'echo',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            lat.push(performance.now() - start);
            calls++;
            try {
              let text = Buffer.concat(chunks).toString('utf8');
              if ((res.headers['content-type'] ?? '').includes('text/event-stream')) {
                text =
                  text
                    .split('\n')
                    .filter((l) => l.startsWith('data: '))
                    .map((l) => l.slice(6))
                    .pop() ?? '';
              }
              const m = JSON.parse(text);
              if (res.statusCode !== 200 || m.error) errors++;
              else if (m.id !== rid || m.result?.structuredContent?.output !== input) mismatches++;
            } catch {
              errors++;
            }
            done();
          });
        },
      );
      req.on('error', () => {
        errors++;
        calls++;
        done();
      });
      req.end(body);
    });
  const loop = async () => {
    for (;;) {
      if (performance.now() >= stopAt) return;
      if (opts.totalCalls !== undefined && issued >= opts.totalCalls) return;
      issued++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { calls, errors, mismatches, seconds, lat: Float64Array.from(lat) };
}

/** A long-lived stdio session with `inflight` requests outstanding, for `ms`. */
class StdioDriver {
  private pending = new Map<number, { input: string; start: number; done: (ok: boolean, mismatch: boolean) => void }>();
  private id = 0;
  constructor(private child: Child) {
    const rl = createInterface({ input: child.proc.stdout! });
    rl.on('line', (line) => {
      if (!line.trim()) return;
      const m = JSON.parse(line);
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      const out = m.result?.structuredContent?.output;
      p.done(!m.error, out !== undefined && out !== p.input);
    });
  }
  private send(msg: Record<string, unknown>): void {
    this.child.proc.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
  }
  async open(): Promise<void> {
    await new Promise<void>((resolveOpen, reject) => {
      const rid = ++this.id;
      const t = setTimeout(
        () => reject(new Error(`${this.child.name}: no answer to server/discover; ${this.child.stderr().slice(-300)}`)),
        60_000,
      );
      this.pending.set(rid, { input: '', start: 0, done: () => (clearTimeout(t), resolveOpen()) });
      this.send({ id: rid, method: 'server/discover', params: { _meta: ENVELOPE } });
    });
  }
  async run(inflight: number, ms: number): Promise<RunResult> {
    const lat: number[] = [];
    let calls = 0;
    let errors = 0;
    let mismatches = 0;
    const t0 = performance.now();
    const stopAt = t0 + ms;
    const one = () =>
      new Promise<void>((done) => {
        const input = nextInput();
        const rid = ++this.id;
        const start = performance.now();
        this.pending.set(rid, {
          input,
          start,
          done: (ok, mismatch) => {
            lat.push(performance.now() - start);
            calls++;
            if (!ok) errors++;
            else if (mismatch) mismatches++;
            done();
          },
        });
        this.send({ id: rid, method: 'tools/call', params: { name: 'echo', arguments: { input }, _meta: ENVELOPE } });
      });
    await Promise.all(
      Array.from({ length: inflight }, async () => {
        while (performance.now() < stopAt) await one();
      }),
    );
    return { calls, errors, mismatches, seconds: (performance.now() - t0) / 1000, lat: Float64Array.from(lat) };
  }
}

function merge(rs: RunResult[]): RunResult {
  const lat = new Float64Array(rs.reduce((n, r) => n + r.lat.length, 0));
  let o = 0;
  for (const r of rs) {
    lat.set(r.lat, o);
    o += r.lat.length;
  }
  lat.sort();
  return {
    calls: rs.reduce((n, r) => n + r.calls, 0),
    errors: rs.reduce((n, r) => n + r.errors, 0),
    mismatches: rs.reduce((n, r) => n + r.mismatches, 0),
    seconds: rs.reduce((n, r) => n + r.seconds, 0),
    lat,
  };
}

function fmt(n: number, d = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

// ---------------------------------------------------------------- main
async function main(): Promise<void> {
  const roleIdx = process.argv.indexOf('--serve');
  if (roleIdx >= 0) return serveRole(process.argv[roleIdx + 1]);

  const ROUNDS = Number(process.env.FIXTURE_LOAD_ROUNDS ?? 3);
  const ROUND_MS = Number(process.env.FIXTURE_LOAD_ROUND_MS ?? 3000);
  const SOAK = Number(process.env.FIXTURE_LOAD_SOAK ?? 100_000);
  const tStart = performance.now();
  const self = ['--import', 'tsx', SELF, '--serve'];
  console.log(`fixture-load: ${ROUNDS} interleaved rounds x ${ROUND_MS} ms per server and transport; soak ${fmt(SOAK)} calls @256`);

  const [fxHttp, sdkHttp, bareHttp, fxStdio, sdkStdio, bareStdio] = await Promise.all([
    launch('fixture', fixtureArgs('streamable-http'), true),
    launch('sdk', [...self, 'sdk-http'], true),
    launch('bare', [...self, 'bare-http'], true),
    launch('fixture', fixtureArgs('stdio'), false),
    launch('sdk', [...self, 'sdk-stdio'], false),
    launch('bare', [...self, 'bare-stdio'], false),
  ]);
  const drivers = [fxStdio, sdkStdio, bareStdio].map((c) => new StdioDriver(c));
  await Promise.all(drivers.map((d) => d.open()));

  const cells: Array<{ transport: string; names: string[]; results: RunResult[][] }> = [];
  // HTTP, 64 clients
  const httpServers = [fxHttp, sdkHttp, bareHttp];
  for (const s of httpServers) await httpLoad(s.port!, 64, { ms: 500 }); // warm-up
  const httpRes: RunResult[][] = httpServers.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < httpServers.length; i++) httpRes[i].push(await httpLoad(httpServers[i].port!, 64, { ms: ROUND_MS }));
  }
  cells.push({ transport: 'stateless HTTP, 64 clients', names: httpServers.map((s) => s.name), results: httpRes });
  // stdio, 64 in flight
  for (const d of drivers) await d.run(64, 500);
  const stdioRes: RunResult[][] = drivers.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < drivers.length; i++) stdioRes[i].push(await drivers[i].run(64, ROUND_MS));
  }
  cells.push({ transport: 'stdio, 64 in flight', names: ['fixture', 'sdk', 'bare'], results: stdioRes });

  for (const cell of cells) {
    console.log(`\n${cell.transport}:`);
    console.log('  server    calls/s   p50 ms   p99 ms   calls  errors  mismatched');
    const merged = cell.results.map(merge);
    const rate = merged.map((m) => m.calls / m.seconds);
    merged.forEach((m, i) => {
      console.log(
        `  ${cell.names[i].padEnd(8)} ${fmt(rate[i]).padStart(8)} ${fmt(pct(m.lat, 50), 2).padStart(8)} ${fmt(pct(m.lat, 99), 2).padStart(8)} ${fmt(m.calls).padStart(8)} ${String(m.errors).padStart(7)} ${String(m.mismatches).padStart(11)}`,
      );
    });
    console.log(
      `  fixture / sdk  = ${(rate[0] / rate[1]).toFixed(2)}x (target >= 1.0x)   fixture / bare = ${(rate[0] / rate[2]).toFixed(2)}x (target >= 0.5x)`,
    );
  }

  // soak
  const ts = performance.now();
  const soak = await httpLoad(fxHttp.port!, 256, { totalCalls: SOAK });
  const soakSecs = (performance.now() - ts) / 1000;
  soak.lat.sort();
  const ok = soak.errors === 0 && soak.mismatches === 0 && soak.calls === SOAK;
  console.log(
    `\nsoak (fixture, stateless HTTP, 256 concurrent, unique inputs): ${fmt(soak.calls)} calls in ${soakSecs.toFixed(1)} s ` +
      `(${fmt(soak.calls / soakSecs)}/s), p50 ${pct(soak.lat, 50).toFixed(1)} ms, p99 ${pct(soak.lat, 99).toFixed(1)} ms, ` +
      `errors ${soak.errors}, mismatched ${soak.mismatches} -> ${ok ? 'PASS' : 'FAIL'}`,
  );
  const mem = children.find((c) => c === fxHttp);
  void mem;
  console.log(`fixture-load total ${((performance.now() - tStart) / 1000).toFixed(1)} s`);
  for (const c of children) c.proc.stdin?.end();
  stopAll();
}

main().catch((e) => {
  console.log(`fixture-load failed: ${(e as Error).message}`);
  stopAll();
  process.exitCode = 1;
});
