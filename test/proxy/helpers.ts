/** Shared helpers for the proxy tests (real processes, real loopback HTTP). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcp, resultText, type CallResult, type McpConnection, type ProtocolChoice } from '../../pipeline/mcp/client.ts';
import { fixtureStdioTarget } from '../../pipeline/fixture/launch.ts';
import { startProxy, validateProxyConfig, type ProxyHandle } from '../../pipeline/proxy/index.ts';
import assert from 'node:assert/strict';

import { REPO_ROOT as REPO } from '../../pipeline/constants.ts';
export { REPO };
export const MCPGAUGE_BIN = join(REPO, 'bin', 'mcpgauge.mjs');
const NM = join(REPO, 'node_modules', '@modelcontextprotocol');

export function memoryServer(name = 'memory', file?: string) {
  return {
    name,
    command: process.execPath,
    args: [join(NM, 'server-memory', 'dist', 'index.js')],
    env: (file ? { MEMORY_FILE_PATH: file } : {}) as Record<string, string>,
  };
}
export function everythingServer(name = 'everything') {
  return { name, command: process.execPath, args: [join(NM, 'server-everything', 'dist', 'index.js')], env: {} as Record<string, string> };
}
/** The project's fixture over stdio as a proxy config entry (env = fault modes). */
export function fixtureServer(name = 'fixture', env: Record<string, string> = {}, args: string[] = []) {
  const t = fixtureStdioTarget(args, env);
  if (t.kind !== 'stdio') throw new Error('fixtureStdioTarget is not stdio');
  return { name, command: t.command, args: t.args ?? [], env: t.env ?? {} };
}

export function tempDir(prefix: string): { dir: string; write(name: string, data: unknown): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), `mcpgauge-${prefix}-`));
  return {
    dir,
    write(name, data) {
      const p = join(dir, name);
      writeFileSync(p, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
      return p;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function connectProxy(p: ProxyHandle, protocol: ProtocolChoice = 'legacy'): Promise<McpConnection> {
  return connectMcp({ kind: 'http', url: p.url, headers: { 'X-API-Key': p.apiKey } }, { protocol, timeoutMs: 60_000 });
}

/** Call a proxy tool and parse its single JSON text block. */
export async function callJson(c: McpConnection, tool: string, args: Record<string, unknown>): Promise<{ json: any; result: CallResult }> {
  const result = await c.callTool(tool, args);
  const text = resultText(result);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { json, result };
}

/** Poll until `pred()` holds (or throw after `ms`). */
export async function waitFor<T>(what: string, fn: () => T | Promise<T>, pred: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  let last: T | undefined;
  for (;;) {
    last = await fn();
    if (pred(last)) return last;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A raw JSON-RPC POST to the proxy endpoint (legacy initialize), for auth/origin checks. */
export function rawInitialize(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
    }),
  });
}

export const quiet = (sink?: string[]) => (msg: string) => {
  sink?.push(msg);
  if (process.env.PROXY_TEST_LOG) process.stderr.write(`[proxy] ${msg}\n`);
};

export const FAST_RESTART = { initial_ms: 100, max_ms: 400, factor: 2, stable_ms: 5000, max_attempts: 0 };

/** Start a proxy on a free loopback port (key 'k', fast restarts), connect a client, run `fn`, tear down. */
export async function withProxy(
  raw: Record<string, unknown>,
  fn: (p: ProxyHandle, c: McpConnection, logs: string[]) => Promise<void>,
): Promise<void> {
  const logs: string[] = [];
  const config = validateProxyConfig(
    { listen: { host: '127.0.0.1', port: 0 }, api_key: 'k', restart: FAST_RESTART, connect_timeout_ms: 90_000, ...raw },
    'test',
    {},
  );
  const p = await startProxy(config, { transport: 'http', log: quiet(logs) });
  let c: McpConnection | undefined;
  try {
    c = await connectProxy(p);
    await fn(p, c, logs);
  } finally {
    await c?.close();
    await p.close();
  }
}

/** The fixture ping's per-process instance id. */
export function pingInstance(text: string): string {
  const m = /"instance(?:_id)?"\s*:\s*"([^"]+)"/.exec(text) ?? /instance[ _]id[^A-Za-z0-9]*([A-Za-z0-9-]+)/i.exec(text);
  assert.ok(m, `no instance id in ping answer ${text}`);
  return m[1];
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
