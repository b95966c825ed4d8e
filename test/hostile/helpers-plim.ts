/**
 * Helpers of proxy-limits.test.ts: `mcpgauge proxy` as a real process (so its memory is its own
 * and can be read from /proc), and raw HTTP requests the fetch API cannot make (a foreign Host,
 * a body that is never finished).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import { REPO_ROOT } from '../../pipeline/constants.ts';

export const MCPGAUGE_BIN = join(REPO_ROOT, 'bin', 'mcpgauge.mjs');
export const BIGLIST = join(REPO_ROOT, 'test', 'hostile', 'servers', 'plim-biglist.mjs');

/** A proxy upstream entry running the hostile list server over stdio with a list of `bytes`. */
export function biglistServer(name: string, bytes: number) {
  return { name, command: process.execPath, args: [BIGLIST], env: { PLIM_LIST_BYTES: String(bytes) } };
}

/** A private temp folder, removed by cleanup(). */
export function plimTemp(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-plim-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function until<T>(what: string, fn: () => T | undefined, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ProxyProcess {
  child: ChildProcess;
  url: string;
  port: number;
  pid: number;
  stderr(): string;
  /** resident set size now (kB), from /proc */
  rssKb(): number;
  stop(): Promise<void>;
}

/** Start `mcpgauge proxy --config <cfg> --port 0` and wait for its listening line. */
export async function spawnProxy(dir: string, config: unknown, readyMs = 60_000): Promise<ProxyProcess> {
  const cfg = join(dir, 'proxy.json');
  writeFileSync(cfg, JSON.stringify(config));
  const child = spawn(process.execPath, [MCPGAUGE_BIN, 'proxy', '--config', cfg, '--port', '0'], {
    cwd: REPO_ROOT,
    env: { ...process.env, MCPGAUGE_PROXY_API_KEY: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    const url = await until(
      'the listening line',
      () =>
        /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(err)?.[1] ??
        (child.exitCode !== null ? `exit ${child.exitCode}` : undefined),
      readyMs,
    );
    if (!url.startsWith('http')) throw new Error(`proxy ${url}: ${err}`);
    return {
      child,
      url,
      port: Number(new URL(url).port),
      pid: child.pid!,
      stderr: () => err,
      rssKb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN),
      async stop() {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(t);
      },
    };
  } catch (e) {
    child.kill('SIGKILL');
    await exited;
    throw e;
  }
}

/** One raw HTTP request; resolves with the status, headers and body of the answer. */
export function rawRequest(port: number, lines: string[], body = ''): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.setEncoding('utf8');
    s.on('data', (d) => (got += d));
    s.on('error', reject);
    s.on('close', () => {
      const i = got.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(got)?.[1] ?? 0), head: got.slice(0, i), body: got.slice(i + 4) });
    });
    s.write([...lines, 'Connection: close', `Content-Length: ${Buffer.byteLength(body)}`, '', ''].join('\r\n') + body);
  });
}

/**
 * A POST /mcp with the key that announces `declared` bytes and sends `piece` of them, then
 * neither finishes nor closes. Resolves once the piece is written, or the server has answered or
 * closed; `answer()` is what the server said so far.
 */
export function halfOpenPost(port: number, key: string, declared: number, piece: Buffer): Promise<{ socket: Socket; answer(): string }> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve({ socket: s, answer: () => got });
    };
    s.setEncoding('utf8');
    s.on('data', (d) => {
      got += d;
      finish();
    });
    s.on('error', finish);
    s.on('close', finish);
    const head = [
      'POST /mcp HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `X-API-Key: ${key}`,
      'Content-Type: application/json',
      'Accept: application/json, text/event-stream',
      `Content-Length: ${declared}`,
      '',
      '',
    ].join('\r\n');
    s.write(head);
    s.write(piece, () => finish());
  });
}
