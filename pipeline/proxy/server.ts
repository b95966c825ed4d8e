/**
 * Reference discovery proxy: startProxy (used by `mcpgauge proxy` and the live stage).
 *
 *   const p = await startProxy(loadProxyConfig('proxy.json'), { transport: 'http', port: 0 });
 *   p.url, p.apiKey, p.toolCount(), p.upstreamStatus(); await p.close();
 */
import { randomBytes } from 'node:crypto';
import { UserError } from '../types.ts';
import { listenProblem } from '../util/port.ts';
import type { ProxyConfig } from './config.ts';
import { ProxyCore } from './core.ts';
import { serveHttp, serveProxyStdio } from './serve.ts';
import type { UpstreamStatus } from './upstream.ts';
import { getRetrieverEntry } from '../retrieval/index.ts';
import type { RetrieverOptions } from '../retrieval/index.ts';

export interface StartProxyOptions {
  transport: 'http' | 'stdio';
  /** HTTP port (0 = a free port); default config.listen.port */
  port?: number;
  /** HTTP bind address; default config.listen.host (127.0.0.1) */
  host?: string;
  /** API key for HTTP; default env MCPGAUGE_PROXY_API_KEY, then config.api_key, else a random key */
  apiKey?: string;
  /** retriever id behind retrieve_tools (pipeline/retrieval/registry.ts); default the registry's first */
  retriever?: string;
  /** options for that retriever (e.g. embed's url and model) */
  retrieverOptions?: RetrieverOptions;
  /** log sink (default: stderr lines prefixed "mcpgauge proxy: ") */
  log?: (msg: string) => void;
  /** stdio only: called when the client closes stdin (the CLI exits there) */
  onStdinEnd?: () => void;
}

export interface ProxyHandle {
  /** http://127.0.0.1:PORT/mcp ('' for stdio) */
  url: string;
  /** the key HTTP clients must send ('' for stdio) */
  apiKey: string;
  transport: 'http' | 'stdio';
  /** tools currently indexed (connected upstreams only) */
  toolCount(): number;
  upstreamStatus(): UpstreamStatus[];
  /** stops serving, closes every upstream (killing stdio children); idempotent */
  close(): Promise<void>;
}

export const API_KEY_ENV = 'MCPGAUGE_PROXY_API_KEY';

const defaultLog = (msg: string) => {
  process.stderr.write(`mcpgauge proxy: ${msg}\n`);
};

export async function startProxy(config: ProxyConfig, opts: StartProxyOptions): Promise<ProxyHandle> {
  const log = opts.log ?? defaultLog;
  if (opts.transport !== 'http' && opts.transport !== 'stdio') {
    throw new UserError(`proxy: transport must be "http" or "stdio", got ${JSON.stringify(opts.transport)}`);
  }
  const port = opts.port ?? config.listen.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UserError(`proxy: port must be an integer in 0..65535, got ${JSON.stringify(port)}`);
  let apiKey = '';
  if (opts.transport === 'http') {
    const envKey = process.env[API_KEY_ENV];
    apiKey = opts.apiKey ?? (envKey ? envKey : undefined) ?? config.api_key ?? '';
    if (!apiKey) {
      apiKey = randomBytes(18).toString('base64url');
      log(`no API key configured (config api_key, --api-key or ${API_KEY_ENV}); generated one for this run: ${apiKey}`);
    }
  }
  const retriever = opts.retriever ?? config.retriever;
  if (retriever !== undefined) {
    await getRetrieverEntry(retriever).prepare?.(opts.retrieverOptions, log);
    const why = getRetrieverEntry(retriever).unavailable?.(opts.retrieverOptions);
    if (why) throw new UserError(`proxy --retriever ${retriever}: ${why}`);
  }
  const core = new ProxyCore(config, log, { retriever, retrieverOptions: opts.retrieverOptions });
  await core.start();
  log(`${core.toolCount()} tools from ${core.upstreamStatus().filter((s) => s.connected).length}/${config.servers.length} upstreams`);

  let closed: Promise<void> | null = null;
  if (opts.transport === 'http') {
    let serving;
    try {
      serving = await serveHttp(core, { host: opts.host ?? config.listen.host, port, apiKey, log });
    } catch (e) {
      await core.close();
      const err = e as NodeJS.ErrnoException;
      throw new UserError(`proxy: ${err.code ? listenProblem(opts.host ?? config.listen.host, port, err) : err.message}`);
    }
    return {
      url: serving.url,
      apiKey,
      transport: 'http',
      toolCount: () => core.toolCount(),
      upstreamStatus: () => core.upstreamStatus(),
      close: () =>
        (closed ??= (async () => {
          await serving.close();
          await core.close();
        })()),
    };
  }
  const stdio = serveProxyStdio(core, { log, onEnd: () => opts.onStdinEnd?.() });
  return {
    url: '',
    apiKey: '',
    transport: 'stdio',
    toolCount: () => core.toolCount(),
    upstreamStatus: () => core.upstreamStatus(),
    close: () =>
      (closed ??= (async () => {
        await stdio.close();
        await core.close();
      })()),
  };
}
