/**
 * Start a proxy under test from a spec: a command template (stdio-served, or HTTP-served when a
 * URL template is given), optionally with a config template written next to it, or a URL of a
 * proxy that is already running. Placeholders: template.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpTarget } from '../mcp/client.ts';
import { UserError } from '../types.ts';
import { assertExecutable, spawnGroup, stopChild } from '../util/proc.ts';
import { fillCommand, fillConfig, fillText, redact, shellLine, type PlaceholderValues } from './template.ts';
import { httpTarget, type ProxyTransport } from './transport.ts';
import { isInputRefusal, readInputText } from '../util/fs.ts';

export type ProxySpec =
  | {
      kind: 'command';
      /** command template; leading NAME=value words are environment variables; `node` = this Node */
      command: string;
      /** config template file, filled and written to {CONFIG_FILE} in the work dir */
      configTemplate?: string;
      /** URL template of an HTTP-served proxy (e.g. http://127.0.0.1:{PORT}/mcp); absent = stdio-served */
      url?: string;
      /** how the served proxy is spoken to (transport.ts); default streamable-http with a url, else stdio */
      transport?: ProxyTransport;
    }
  | { kind: 'url'; url: string; apiKey?: string; transport?: 'streamable-http' | 'sse' };

export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

export interface RunningProxy {
  /** how to reach it over MCP */
  target: McpTarget;
  served: 'stdio' | 'http';
  /** display form (secrets redacted) */
  description: string;
  /** process id of an HTTP-served proxy the adapter started */
  pid: number | undefined;
  /** set once the started process has exited */
  exit(): ExitInfo | null;
  /** everything the started process wrote (stdout + stderr), secrets redacted */
  output(): string;
  /** stop the started process and its process group (SIGTERM, then SIGKILL after `graceMs`) */
  stop(graceMs?: number): Promise<void>;
}

/** the ports freePort has handed out in this process: never handed out twice */
const handedOut = new Set<number>();

function listenAny(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

/**
 * A free loopback TCP port (bound and released: the small race with other processes is accepted),
 * never one this process has handed out before. Linux gives a port just released to the next
 * listen(0) often (72 repeats in 1,000 calls here), so without the set two parallel gate cells got
 * the same port: one cell's proxy found it taken by the other's listener while it was starting (CI,
 * a network cell, "listen.port … is in use"). Each refused port stays bound until one is found, so
 * the kernel moves on.
 */
export async function freePort(bind: () => Promise<Server> = listenAny): Promise<number> {
  // `bind` gives the candidates (a test hands it a port of its choice first)
  const held: Server[] = [];
  try {
    for (let i = 0; i < 200; i++) {
      const s = await bind();
      held.push(s);
      const port = (s.address() as AddressInfo).port;
      if (!handedOut.has(port)) {
        handedOut.add(port);
        return port;
      }
    }
    throw new Error('no free 127.0.0.1 port that this process has not handed out already (200 tries)');
  } finally {
    await Promise.all(held.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }
}

/**
 * A port this process bound by itself (a listen(0) whose port it keeps, e.g. an HTTP fixture the
 * gate restarts on the same port): freePort never hands it out, not even while it is down.
 */
export function reservePort(port: number): void {
  handedOut.add(port);
}

/** Split a filled command into env (leading NAME=value words) and argv; `node` means this Node. */
export function commandParts(argv: string[], where: string): { env: Record<string, string>; command: string; args: string[] } {
  const words = [...argv];
  const env: Record<string, string> = {};
  while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
    const w = words.shift()!;
    env[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  }
  if (words.length === 0) throw new UserError(`${where}: no command`);
  const [command, ...args] = words;
  return { env, command: command === 'node' ? process.execPath : command, args };
}

export interface LaunchContext {
  /** folder for the filled config and nothing else the caller does not own */
  workDir: string;
  values: PlaceholderValues;
  /** secrets to redact from output and descriptions */
  secrets: readonly string[];
  /** receives every output chunk (already redacted), e.g. a log file writer */
  onOutput?: (chunk: string) => void;
  /**
   * The whole environment of a started proxy (the command's own NAME=value words are added on
   * top), e.g. util/proc.ts allowedEnv(). Absent: this process's environment is inherited.
   */
  env?: Record<string, string>;
}

/** Start (or point at) the proxy described by `spec`. */
export async function launchProxy(spec: ProxySpec, ctx: LaunchContext): Promise<RunningProxy> {
  if (spec.kind === 'url') {
    const target = httpTarget(fillText(spec.url, ctx.values, '--proxy-url'), spec.transport ?? 'streamable-http', spec.apiKey);
    return {
      target,
      served: 'http',
      description: `proxy at ${target.url}`,
      pid: undefined,
      exit: () => null,
      output: () => '',
      stop: async () => {},
    };
  }
  const values: PlaceholderValues = { ...ctx.values };
  if (spec.configTemplate !== undefined) {
    let text: string;
    try {
      text = readInputText(spec.configTemplate, 'a config template');
    } catch (e) {
      if (isInputRefusal(e)) throw e;
      throw new UserError(
        `${spec.configTemplate}: cannot read config template (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
    const filled = fillConfig(text, values, spec.configTemplate);
    const configFile = join(ctx.workDir, 'proxy.config.json');
    writeFileSync(configFile, filled, { mode: 0o600 });
    values.CONFIG_FILE = configFile;
  }
  const parts = commandParts(fillCommand(spec.command, values, '--proxy-cmd'), '--proxy-cmd');
  const display = redact(shellLine([parts.command, ...parts.args]), ctx.secrets);
  // a program that cannot be started is a harness error with the OS error (ENOENT, EACCES), not a failed check
  assertExecutable(parts.command, '--proxy-cmd', (ctx.env ?? process.env).PATH);
  const env = ctx.env ? { ...ctx.env, ...parts.env } : undefined;
  if (spec.url === undefined || spec.transport === 'stdio') {
    const target: McpTarget = { kind: 'stdio', command: parts.command, args: parts.args, env: env ?? parts.env };
    return {
      target,
      served: 'stdio',
      description: `stdio proxy: ${display}`,
      pid: undefined,
      exit: () => null,
      output: () => '',
      stop: async () => {},
    };
  }
  const apiKey = typeof values.API_KEY === 'string' ? values.API_KEY : undefined;
  const target = httpTarget(fillText(spec.url, values, '--proxy-url'), spec.transport === 'sse' ? 'sse' : 'streamable-http', apiKey);
  let out = '';
  let exit: ExitInfo | null = null;
  // its own process group (util/proc.ts spawnGroup): stop() and the signal handlers end all of it
  const child: ChildProcess = spawnGroup(parts.command, parts.args, {
    env: env ?? { ...process.env, ...parts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    label: `proxy ${display.slice(0, 80)}`,
  });
  let spawnError: NodeJS.ErrnoException | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
    child.once('error', (e) => {
      spawnError = e;
      out += `spawn failed: ${e.message}\n`;
      exit ??= { code: null, signal: null };
      resolve();
    });
  });
  const take = (d: Buffer) => {
    const s = redact(d.toString('utf8'), ctx.secrets);
    out += s;
    if (out.length > 128_000) out = out.slice(-64_000); // the last lines, for evidence; the log file is the caller's
    ctx.onOutput?.(s);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  // started, or the OS said why not
  await Promise.race([new Promise<void>((r) => child.once('spawn', () => r())), exited]);
  if (spawnError)
    throw new UserError(`--proxy-cmd: cannot start ${JSON.stringify(parts.command)}: ${spawnError.code ?? spawnError.message}`, 2);
  return {
    target,
    served: 'http',
    description: `${target.kind === 'sse' ? 'HTTP+SSE' : 'HTTP'} proxy ${target.url}: ${display}`,
    pid: child.pid,
    exit: () => exit,
    output: () => out,
    async stop(graceMs = 3000) {
      // SIGTERM to the group, SIGKILL after graceMs, then SIGKILL to whatever it left in its group
      if (child.pid !== undefined) await stopChild(child, { graceMs });
      await exited;
    },
  };
}
