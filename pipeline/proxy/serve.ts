/**
 * The proxy's MCP face: one McpServer factory (4 tools) served over stdio (serveStdio) or
 * streamable HTTP (createMcpHandler behind node:http, /mcp, API key, Origin/Host guards,
 * /healthz). Both protocol eras (2025-11-25 and 2026-07-28) are served by the SDK entries.
 */
import { CORS_ALLOW_HEADERS, closeServer, isLoopbackHost, listen, sendJson, urlHost } from '../util/http.ts';
import { hostGuard, originPolicy } from '../util/http-guard.ts';
import { VERSION } from '../constants.ts';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { McpServer, createMcpHandler, fromJsonSchema, type McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { ProxyCore } from './core.ts';
import type { CallContext } from './upstream.ts';
import { LeanStdioTransport } from '../mcp/stdio-server.ts';
import { bodyBudget, legacySessions } from './sessions.ts';

export const PROXY_SERVER_INFO = { name: 'mcpgauge-proxy', version: VERSION };

export const PROXY_TOOL_DESCRIPTIONS = {
  retrieve_tools:
    'Search the tools of every upstream MCP server behind this proxy. Describe the task in a few words; returns the best ' +
    'matching tools ranked by BM25, each with its name (server:tool) and input schema (detail "full", default) or a ' +
    'one-line signature (detail "compact"). Call this first, then call_tool with a returned name.',
  call_tool:
    'Run an upstream tool by the name retrieve_tools returned ("server:tool") with its arguments as a JSON object. ' +
    "Returns the upstream tool's result unchanged; errors come back as tool errors.",
  describe_tool: 'Full description and input schema of one upstream tool, by name ("server:tool").',
  upstream_servers:
    'Status of the upstream MCP servers (state, tool count, restarts, last error) with action "list" (default), or ' +
    'restart one with action "restart" and its name.',
};

/** JSON Schemas of the proxy's tools, served exactly as written (no generator noise). */
export function proxyToolSchemas(toolsLimit: number, maxLimit: number) {
  return {
    retrieve_tools: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What you want to do, in a few words' },
        limit: { type: 'integer', minimum: 1, maximum: maxLimit, description: `How many tools to return (default ${toolsLimit})` },
        detail: { type: 'string', enum: ['full', 'compact'], description: 'full: input schemas; compact: one-line signatures' },
      },
      required: ['query'],
    },
    call_tool: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Tool name as server:tool' },
        arguments: { type: 'object', description: "The tool's arguments" },
      },
      required: ['name'],
    },
    describe_tool: {
      type: 'object',
      properties: { name: { type: 'string', description: 'Tool name as server:tool' } },
      required: ['name'],
    },
    upstream_servers: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['list', 'restart'] },
        name: { type: 'string', description: 'Upstream name (for restart)' },
      },
    },
  } as const;
}

/** A McpServer factory exposing the proxy's four tools over `core` (schemas built once, shared by every instance). */
export function proxyServerFactory(core: ProxyCore): McpServerFactory {
  const raw = proxyToolSchemas(core.config.tools_limit, core.config.max_tools_limit);
  const schema = {
    retrieve_tools: fromJsonSchema<Record<string, unknown>>(raw.retrieve_tools as never),
    call_tool: fromJsonSchema<Record<string, unknown>>(raw.call_tool as never),
    describe_tool: fromJsonSchema<Record<string, unknown>>(raw.describe_tool as never),
    upstream_servers: fromJsonSchema<Record<string, unknown>>(raw.upstream_servers as never),
  };
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  return () => {
    const server = new McpServer(PROXY_SERVER_INFO, { capabilities: { tools: {} } });
    server.registerTool(
      'retrieve_tools',
      { description: PROXY_TOOL_DESCRIPTIONS.retrieve_tools, inputSchema: schema.retrieve_tools, annotations: readOnly },
      async (args) => core.retrieveTools(args) as never,
    );
    server.registerTool(
      'call_tool',
      { description: PROXY_TOOL_DESCRIPTIONS.call_tool, inputSchema: schema.call_tool, annotations: { openWorldHint: true } },
      async (args, ctx) => (await core.callTool(args, callContext(ctx))) as never,
    );
    server.registerTool(
      'describe_tool',
      { description: PROXY_TOOL_DESCRIPTIONS.describe_tool, inputSchema: schema.describe_tool, annotations: readOnly },
      async (args) => core.describeTool(args) as never,
    );
    server.registerTool(
      'upstream_servers',
      {
        description: PROXY_TOOL_DESCRIPTIONS.upstream_servers,
        inputSchema: schema.upstream_servers,
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      },
      async (args) => (await core.upstreamServers(args)) as never,
    );
    return server;
  };
}

/**
 * The caller's `_meta` (minus its progress token, which only this hop can answer), its
 * cancellation, and, when it sent a progress token, a sender of notifications/progress that
 * carries that token (the upstream's progress goes back to the caller under the caller's token).
 */
function callContext(ctx: {
  mcpReq?: {
    _meta?: Record<string, unknown>;
    signal?: AbortSignal;
    notify?: (n: { method: string; params: Record<string, unknown> }) => Promise<void>;
  };
}): CallContext {
  const raw = ctx?.mcpReq?._meta;
  const meta = raw ? Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'progressToken')) : undefined;
  const token = raw?.progressToken;
  const notify = ctx?.mcpReq?.notify;
  const progress: CallContext['progress'] =
    (typeof token === 'string' || typeof token === 'number') && notify
      ? (p) => notify({ method: 'notifications/progress', params: { ...p, progressToken: token } }).catch(() => {})
      : undefined;
  return { meta: meta && Object.keys(meta).length ? meta : undefined, signal: ctx?.mcpReq?.signal, progress };
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/** The API key a request presents: `X-API-Key`, else `Authorization: Bearer <key>`. */
export function presentedKey(req: IncomingMessage): string | undefined {
  const x = req.headers['x-api-key'];
  if (typeof x === 'string' && x !== '') return x;
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) return m[1].trim();
  }
  return undefined;
}

export { isLoopbackHost };

export interface HttpServing {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serve the proxy on http://host:port/mcp; port 0 picks a free port. */
export async function serveHttp(
  core: ProxyCore,
  opts: { host: string; port: number; apiKey: string; log: (msg: string) => void },
): Promise<HttpServing> {
  const factory = proxyServerFactory(core);
  const handler = createMcpHandler(factory, {
    legacy: 'stateless',
    onerror: (e) => opts.log(`mcp handler: ${e.message}`),
  });
  const node = toNodeHandler(handler, { onerror: (e) => opts.log(`http adapter: ${e.message}`) });
  // one budget for the bytes of every request body in flight (max_buffered_bytes; 503 past it)
  const sessions = legacySessions(factory, (req, res, body) => node(req, res, body), opts.log, bodyBudget(core.config.max_buffered_bytes));
  // one Origin/CORS policy and one Host guard for every loopback server (util/http.ts); the
  // Host guard is off for a non-loopback bind (e.g. 0.0.0.0 in a container)
  const origins = originPolicy();
  const guardHost = hostGuard(opts.host);
  const wanted = digest(opts.apiKey);

  const server: HttpServer = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const isMcp = path === '/mcp' || path === '/mcp/';
    if (!isMcp && path !== '/healthz') {
      sendJson(res, 404, { error: `not found: ${path} (the MCP endpoint is /mcp)` });
      return;
    }
    // /healthz is guarded like /mcp: a rebinding page must not read it either
    if (guardHost && !guardHost(req, res)) return;
    if (!origins.guard(req, res)) return;
    const cors = origins.cors(req);
    for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
    if (req.method === 'OPTIONS') {
      // a browser preflight carries no credentials: answer it before the key check
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
        'Access-Control-Max-Age': '86400',
        'Content-Length': '0',
      });
      res.end();
      return;
    }
    const key = presentedKey(req);
    const keyOk = key !== undefined && timingSafeEqual(digest(key), wanted);
    if (path === '/healthz') {
      // liveness for anyone (a container healthcheck has no key); the upstreams and tool counts
      // only for a caller with the key
      if (!keyOk) return void sendJson(res, 200, { status: 'ok' });
      const st = core.upstreamStatus();
      const connected = st.filter((s) => s.connected).length;
      sendJson(res, 200, {
        status: connected === st.length ? 'ok' : 'degraded',
        tools: core.toolCount(),
        upstreams: { total: st.length, connected },
      });
      return;
    }
    if (!keyOk) {
      sendJson(
        res,
        401,
        { error: key === undefined ? 'missing API key: send X-API-Key or Authorization: Bearer <key>' : 'wrong API key' },
        { 'WWW-Authenticate': 'Bearer realm="mcpgauge-proxy"' },
      );
      return;
    }
    sessions.handle(req, res).catch((e: Error) => {
      opts.log(`request failed: ${e.message}`);
      sendJson(res, 500, { error: 'internal error' });
    });
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  const port = await listen(server, opts.port, opts.host, 'proxy');
  server.on('error', (e) => opts.log(`http server: ${e.message}`));
  const hostForUrl = opts.host === '0.0.0.0' ? '127.0.0.1' : urlHost(opts.host);
  return {
    url: `http://${hostForUrl}:${port}/mcp`,
    port,
    async close() {
      await sessions.close();
      await handler.close().catch(() => {});
      await closeServer(server);
    },
  };
}

/**
 * Serve the proxy on this process's stdin/stdout. `onEnd` runs when the client closes stdin,
 * after the calls already in flight were answered (at most `call_timeout_ms`). Over-long and
 * malformed lines get a JSON-RPC error and reading goes on, so the end of stdin is always seen.
 */
export function serveProxyStdio(core: ProxyCore, opts: { log: (msg: string) => void; onEnd: () => void }): { close(): Promise<void> } {
  const transport = new LeanStdioTransport(process.stdin, process.stdout, { fastParse: false });
  transport.onInputEnd = () => {
    opts.log(`stdin closed; answering ${transport.inFlight()} call(s) in flight, then stopping`);
    void transport
      .settled(core.config.call_timeout_ms)
      .then(() => transport.flushed())
      .then(() => opts.onEnd());
  };
  const handle = serveStdio(proxyServerFactory(core), { legacy: 'serve', transport, onerror: (e) => opts.log(`stdio: ${e.message}`) });
  return {
    async close() {
      await handle.close().catch(() => {});
    },
  };
}
