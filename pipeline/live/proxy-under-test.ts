/**
 * Live-stage targets: which discovery proxy to measure and where its upstreams are.
 *
 * - embedded (default): boots the project's fixture and the npm reference servers
 *   (filesystem, memory, sequential-thinking, everything) as local stdio processes through a
 *   generated proxy config in a temp folder, lists each upstream directly (the naive full menu and
 *   the expected tool total), boots the reference proxy on loopback HTTP and waits until its tool
 *   count reaches that total. `close()` tears everything down (proxy, its upstream children, temp
 *   folder); SIGINT/SIGTERM during the run do the same before the process exits.
 * - url: any proxy by `--proxy-url URL [--api-key K]` (sent as X-API-Key and Authorization: Bearer).
 * - command: any proxy by `--proxy-cmd "..."` spoken to over stdio (split like a shell would,
 *   for simple quoting; leading NAME=value words become environment variables).
 * For url/command the full menu comes from `--upstreams FILE` (a proxy config listing the
 * upstream servers, each listed directly over MCP) or, failing that, a corpus file (labelled).
 */
import { httpTarget } from '../adapter/transport.ts';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectMcp, describeTarget, type McpTarget, type ProtocolChoice, type WireTool } from '../mcp/client.ts';
import { discardScratch, loadProxyConfig, targetOf, type UpstreamConfig } from '../proxy/config.ts';
import { UserError } from '../types.ts';
import { ALLOWED_DIR_PLACEHOLDER, copySeedFolder, writeMemorySeed } from '../toolresults/seed.ts';
import { REPO_ROOT } from '../constants.ts';
import { DEFAULT_RETRIEVER_ID } from '../retrieval/index.ts';

import { EMBEDDED_SERVERS, type TargetOptions } from './types.ts';
export { EMBEDDED_SERVERS };
export type { TargetOptions };
/** connect + tools/list deadline for processes the live stage starts (slow, loaded machines need room) */
export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;
export type EmbeddedServer = (typeof EMBEDDED_SERVERS)[number];

/** One upstream tool as listed over the wire, with the server it came from. */
export interface UpstreamTool {
  server: string;
  tool: WireTool;
}

export interface UpstreamMenu {
  tools: UpstreamTool[];
  /** human label of where the tools came from */
  source: string;
  /** true when listed over MCP from the running upstreams */
  live: boolean;
}

export interface OpenedTarget {
  kind: 'embedded' | 'url' | 'command';
  description: string;
  /** how to reach the proxy */
  proxy: McpTarget;
  /** upstream entries to list for the full menu (empty when the menu is already known or unknown) */
  upstreams: UpstreamConfig[];
  /** filled for the embedded target (listed before the proxy booted) */
  upstreamMenu?: UpstreamMenu;
  /** the retriever behind the proxy's retrieve_tools, when known (embedded: the one it was started with) */
  retriever?: string;
  /** the proxy's own tool count once ready (embedded) */
  proxyToolCount?: number;
  /** for `lap`: an HTTP URL of the proxy */
  httpUrl?: string;
  /** upstream entries the live stage may call directly (result cost: same call without the proxy) */
  direct: UpstreamConfig[];
  /** values of golden-call argument placeholders on this target (embedded: <ALLOWED_DIR>) */
  placeholders: Record<string, string>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------

export { splitCommandLine, commandTarget, urlTarget } from '../adapter/proxy-target.ts';
import { urlTarget, commandTarget } from '../adapter/proxy-target.ts';

// ---------------------------------------------------------------------------------------------

/** List every upstream directly over MCP (in parallel); a failing upstream is an error naming it. */
export async function listUpstreams(
  entries: readonly UpstreamConfig[],
  opts: { timeoutMs?: number; protocol?: ProtocolChoice } = {},
): Promise<UpstreamTool[]> {
  const lists = await Promise.all(
    entries.map(async (e) => {
      const target = targetOf(e);
      const conn = await connectMcp(target, {
        timeoutMs: opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        protocol: e.protocol ?? opts.protocol ?? 'legacy',
      }).catch((err: Error) => {
        throw new Error(`upstream ${JSON.stringify(e.name)}: ${err.message}`);
      });
      try {
        const tools = await conn.listAllTools();
        return tools.map((tool) => ({ server: e.name, tool }));
      } catch (err) {
        throw new Error(`upstream ${JSON.stringify(e.name)} (${describeTarget(target)}): tools/list failed: ${(err as Error).message}`);
      } finally {
        await conn.close();
      }
    }),
  );
  return lists.flat();
}

/** The filesystem upstream's root folder inside the embedded temp folder (`<ALLOWED_DIR>` of golden calls). */
export const embeddedFilesRoot = (dir: string): string => join(dir, 'files');

/**
 * The generated upstream entries of the embedded default, rooted in `dir`. The filesystem root is
 * a copy of the result seed folder and the memory file holds the seed graph (pipeline/toolresults/seed.ts).
 */
export async function embeddedUpstreams(dir: string, which: readonly string[] = EMBEDDED_SERVERS): Promise<UpstreamConfig[]> {
  for (const w of which) {
    if (!(EMBEDDED_SERVERS as readonly string[]).includes(w)) {
      throw new UserError(`embedded upstream ${JSON.stringify(w)} is unknown (valid: ${EMBEDDED_SERVERS.join(', ')})`);
    }
  }
  const nm = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol');
  const node = process.execPath;
  const out: UpstreamConfig[] = [];
  for (const name of which as EmbeddedServer[]) {
    if (name === 'fixture') {
      const { fixtureStdioTarget } = await import('../fixture/launch.ts');
      const t = fixtureStdioTarget();
      if (t.kind !== 'stdio') throw new Error('fixtureStdioTarget() did not return a stdio target');
      const e: UpstreamConfig = { name, command: t.command, args: t.args ?? [], env: t.env ?? {} };
      if (t.cwd) e.cwd = t.cwd;
      out.push(e);
    } else if (name === 'filesystem') {
      // the result-fixture seed folder, so golden calls (result cost) read real files
      const root = embeddedFilesRoot(dir);
      mkdirSync(root, { recursive: true });
      copySeedFolder(root);
      out.push({ name, command: node, args: [join(nm, 'server-filesystem', 'dist', 'index.js'), root], env: {} });
    } else if (name === 'memory') {
      writeMemorySeed(join(dir, 'memory.jsonl'));
      out.push({
        name,
        command: node,
        args: [join(nm, 'server-memory', 'dist', 'index.js')],
        env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
      });
    } else if (name === 'sequential-thinking') {
      out.push({
        name,
        command: node,
        args: [join(nm, 'server-sequential-thinking', 'dist', 'index.js')],
        env: { DISABLE_THOUGHT_LOGGING: 'true' },
      });
    } else {
      out.push({ name, command: node, args: [join(nm, 'server-everything', 'dist', 'index.js'), 'stdio'], env: {} });
    }
  }
  return out;
}

/** Poll `count()` until it reaches `expected` (or stays stable at a lower value past the timeout -> error). */
export async function waitForToolCount(count: () => number, expected: number, timeoutMs: number, what: string): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = count();
  while (last < expected) {
    if (Date.now() > deadline) {
      throw new Error(`${what}: not ready after ${timeoutMs} ms (serves ${last} of ${expected} upstream tools)`);
    }
    await new Promise((r) => setTimeout(r, 100));
    last = count();
  }
  return last;
}

// ---------------------------------------------------------------------------------------------

type Cleanup = () => Promise<void>;

/**
 * Runs `cleanups` (last first) exactly once, on close() or on SIGINT/SIGTERM/SIGHUP (then the
 * signal is re-raised so the process still exits the usual way).
 */
function teardownGuard(cleanups: Cleanup[]): { close(): Promise<void> } {
  let done: Promise<void> | null = null;
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const run = (): Promise<void> => {
    if (!done) {
      for (const s of signals) process.off(s, onSignal);
      done = (async () => {
        for (const c of [...cleanups].reverse()) await c().catch(() => {});
      })();
    }
    return done;
  };
  function onSignal(sig: NodeJS.Signals): void {
    void run().finally(() => process.kill(process.pid, sig));
  }
  for (const s of signals) process.once(s, onSignal);
  return { close: run };
}

/** Opens the target described by the options (embedded when neither proxyUrl nor proxyCmd is set). */
export async function openTarget(opts: TargetOptions): Promise<OpenedTarget> {
  if (opts.proxyUrl !== undefined && opts.proxyCmd !== undefined) throw new UserError('--proxy-url and --proxy-cmd cannot be combined');
  if (opts.apiKey !== undefined && opts.proxyUrl === undefined) throw new UserError('--api-key needs --proxy-url');
  const upstreamConfig = opts.upstreamsFile !== undefined ? loadProxyConfig(opts.upstreamsFile) : undefined;
  const upstreams = upstreamConfig?.servers ?? [];
  // the upstreams file's ${SCRATCH_DIR} (if any) goes when the run ends
  const closeExternal = async (): Promise<void> => {
    if (upstreamConfig) discardScratch(upstreamConfig);
  };
  if (opts.proxyUrl !== undefined) {
    const http = urlTarget(opts.proxyUrl, opts.apiKey);
    // --transport sse: the deprecated HTTP+SSE transport (a bare origin gets /sse instead of /mcp): the adapter's target
    const proxy: McpTarget = opts.transport === 'sse' ? httpTarget(opts.proxyUrl, 'sse', opts.apiKey) : http;
    return {
      kind: 'url',
      description: `proxy at ${proxy.url}${opts.apiKey ? ' (API key)' : ''}`,
      proxy,
      upstreams,
      httpUrl: http.url,
      direct: upstreams,
      placeholders: {},
      close: closeExternal,
    };
  }
  if (opts.proxyCmd !== undefined) {
    const proxy = commandTarget(opts.proxyCmd);
    return {
      kind: 'command',
      description: `proxy command: ${opts.proxyCmd}`,
      proxy,
      upstreams,
      direct: upstreams,
      placeholders: {},
      close: closeExternal,
    };
  }
  if (upstreamConfig) {
    discardScratch(upstreamConfig);
    throw new UserError('--upstreams needs --proxy-url or --proxy-cmd (the embedded default knows its upstreams)');
  }
  return openEmbedded(opts);
}

async function openEmbedded(opts: TargetOptions): Promise<OpenedTarget> {
  const log = opts.log ?? (() => {});
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-live-'));
  const cleanups: Cleanup[] = [async () => rmSync(dir, { recursive: true, force: true })];
  const guard = teardownGuard(cleanups);
  log(`live: embedded default in ${dir}`);
  try {
    const servers = await embeddedUpstreams(dir, opts.embeddedServers ?? EMBEDDED_SERVERS);
    const apiKey = randomBytes(16).toString('hex');
    const configPath = join(dir, 'proxy.config.json');
    writeFileSync(
      configPath,
      JSON.stringify(
        {
          description: 'generated by mcpgauge bench --live (embedded default)',
          servers,
          listen: { host: '127.0.0.1', port: 0 },
          api_key: apiKey,
          connect_timeout_ms: timeoutMs,
          ...(opts.retriever !== undefined ? { retriever: opts.retriever } : {}),
        },
        null,
        2,
      ),
    );
    const names = servers.map((s) => s.name).join(', ');
    // The direct listing (naive full menu + expected total) and the proxy boot run side by side.
    const t0 = Date.now();
    log(`live: listing ${servers.length} upstreams directly (${names}) while booting the reference proxy on loopback HTTP`);
    const { startProxy } = await import('../proxy/index.ts');
    const config = loadProxyConfig(configPath);
    const retriever = opts.retriever ?? DEFAULT_RETRIEVER_ID;
    const booting = startProxy(config, {
      transport: 'http',
      port: 0,
      retriever,
      retrieverOptions: opts.retrieverOptions,
      log: (m) => log(`proxy: ${m}`),
    });
    // registered before anything can fail, so a failed listing still closes a proxy that did boot
    cleanups.push(async () => {
      const p = await booting.catch(() => null);
      if (p) await p.close();
    });
    const [listed, booted] = await Promise.allSettled([listUpstreams(servers, { timeoutMs, protocol: opts.protocol }), booting]);
    if (listed.status === 'rejected') throw listed.reason;
    if (booted.status === 'rejected') throw booted.reason;
    const tools = listed.value;
    const proxy = booted.value;
    const upstreamMenu: UpstreamMenu = { tools, source: `tools/list of ${servers.length} upstreams (${names})`, live: true };
    const count = await waitForToolCount(() => proxy.toolCount(), tools.length, opts.readyTimeoutMs ?? 60_000, 'reference proxy');
    log(`live: proxy ready at ${proxy.url} (${count} tools indexed) in ${Date.now() - t0} ms`);
    const target = urlTarget(proxy.url, proxy.apiKey ?? apiKey);
    return {
      kind: 'embedded',
      description: `embedded reference proxy (loopback HTTP, retriever ${retriever}) over ${names}`,
      retriever,
      proxy: target,
      upstreams: [],
      upstreamMenu,
      direct: servers,
      placeholders: { [ALLOWED_DIR_PLACEHOLDER]: embeddedFilesRoot(dir) },
      proxyToolCount: count,
      httpUrl: target.url,
      close: guard.close,
    };
  } catch (e) {
    await guard.close();
    throw e;
  }
}
