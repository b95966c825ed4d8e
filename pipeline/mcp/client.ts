/**
 * The one MCP client wrapper every stage uses (corpus freeze, fixture tests, proxy upstreams,
 * live stage, later the gate and the prober). Built on the official SDK v2 client.
 */
import { VERSION } from '../constants.ts';
import { Client, StreamableHTTPClientTransport, SSEClientTransport } from '@modelcontextprotocol/client';
import { deserializeMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import type { ProtocolChoice } from './protocol.ts';
import type { WireTool } from './tool-record.ts';

export type McpTarget =
  | { kind: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers?: Record<string, string> }
  | { kind: 'sse'; url: string; headers?: Record<string, string> };

export type { ProtocolChoice } from './protocol.ts';
export type { WireTool } from './tool-record.ts';

export interface ConnectOptions {
  protocol?: ProtocolChoice;
  /** request timeout (ms) for connect and for each request unless overridden */
  timeoutMs?: number;
  clientName?: string;
  /** stdio only: what to do with the child's stderr (default 'pipe', collected in `stderrText()`) */
  stderr?: 'pipe' | 'ignore' | 'inherit';
  /**
   * Largest message read from the server (a stdio line, a streamable-HTTP POST response) and
   * largest `listAllTools` result (all pages, as JSON): past it reading stops, the connection is
   * closed and `limitExceeded()` says why. Default: the SDK's stdio limit (10 MiB), HTTP unlimited.
   */
  maxMessageBytes?: number;
}

/** A server sent more than `ConnectOptions.maxMessageBytes`; reading stopped at `seen` bytes. */
export class MessageTooLarge extends Error {
  constructor(
    readonly what: string,
    readonly limit: number,
    readonly seen: number,
  ) {
    super(`${what} exceeds ${limit} bytes (${seen} bytes read so far; reading stopped)`);
  }
}

export interface CallResult {
  content?: Array<{ type: string; text?: string; [k: string]: unknown }>;
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface McpConnection {
  client: Client;
  target: McpTarget;
  protocolVersion: string | undefined;
  /** stdio child pid (undefined for HTTP) */
  pid: number | undefined;
  /** pages through tools/list until no nextCursor; returns every tool in server order */
  listAllTools(opts?: { timeoutMs?: number }): Promise<WireTool[]>;
  /**
   * The cache hint of the last complete `listAllTools` (2026-07-28 `ttlMs`/`cacheScope` of its
   * first page; `ttlMs` undefined when the server sent none, as 2025-11-25 servers do).
   */
  lastListHint(): { ttlMs?: number; cacheScope?: string } | undefined;
  callTool(
    name: string,
    args: Record<string, unknown>,
    opts?: {
      timeoutMs?: number;
      signal?: AbortSignal;
      meta?: Record<string, unknown>;
      /** asks the server for progress (the SDK puts its own progressToken on the request) */
      onprogress?: (p: ProgressParams) => void;
      /** with onprogress: each progress restarts timeoutMs, never past maxTotalTimeoutMs */
      maxTotalTimeoutMs?: number;
    },
  ): Promise<CallResult>;
  /** collected stderr of a stdio child (when stderr = 'pipe') */
  stderrText(): string;
  /** set once the server passed `maxMessageBytes` (the connection is then closed) */
  limitExceeded(): MessageTooLarge | undefined;
  close(): Promise<void>;
}

/** What a notifications/progress says, without its token. */
export interface ProgressParams {
  progress: number;
  total?: number;
  message?: string;
}

/** A target in messages: `stdio:command args`, the URL (streamable HTTP), or `URL (SSE)`. */
export function describeTarget(t: McpTarget): string {
  if (t.kind === 'stdio') return `stdio:${[t.command, ...(t.args ?? [])].join(' ')}`;
  return t.kind === 'sse' ? `${t.url} (SSE)` : t.url;
}

export async function connectMcp(target: McpTarget, opts: ConnectOptions = {}): Promise<McpConnection> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const protocol = opts.protocol ?? 'legacy';
  const versionNegotiation =
    protocol === 'legacy'
      ? { mode: 'legacy' as const }
      : protocol === 'auto'
        ? { mode: 'auto' as const, probe: { timeoutMs: Math.min(timeoutMs, 5000) } }
        : { mode: { pin: protocol } };
  const client = new Client({ name: opts.clientName ?? 'mcpgauge', version: VERSION }, { capabilities: {}, versionNegotiation });
  const io: StreamState = { stderr: '' };
  const transport = openTransport(target, opts, io);
  // stdout lines that are not JSON while connecting (the SDK skips them silently): a server that
  // logs to stdout or is not an MCP server at all otherwise shows only as a timeout
  const unparsed: string[] = [];
  if (transport instanceof StdioClientTransport) watchStdoutGarbage(transport, unparsed);
  try {
    await client.connect(transport as never, { timeout: timeoutMs });
  } catch (e) {
    await client.close().catch(() => {});
    const extra = io.stderr.trim() ? ` (stderr: ${io.stderr.trim().split('\n').slice(-3).join(' | ')})` : '';
    const notMcp = unparsed.length ? `its stdout was not MCP (first line: ${JSON.stringify(unparsed[0])}); ` : '';
    if (io.tooLarge) throw io.tooLarge;
    throw new Error(`cannot connect to ${describeTarget(target)}: ${notMcp}${httpReason(e, target)}${extra}`);
  }
  unparsed.length = 0;
  let listHint: { ttlMs?: number; cacheScope?: string } | undefined;
  const conn: McpConnection = {
    client,
    target,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    pid: transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined,
    async listAllTools(o) {
      const out: WireTool[] = [];
      let cursor: string | undefined;
      const seen = new Set<string>();
      let bytes = 0;
      let hint: { ttlMs?: number; cacheScope?: string } | undefined;
      for (let page = 0; page < 10_000; page++) {
        // one request per page (client.listTools() without a cursor aggregates at most 64 pages
        // and caches; we want every page over the wire, untouched)
        const res = (await client.request(
          { method: 'tools/list', ...(cursor !== undefined ? { params: { cursor } } : {}) } as never,
          { timeout: o?.timeoutMs ?? timeoutMs } as never,
        )) as { tools: WireTool[]; nextCursor?: string };
        if (opts.maxMessageBytes !== undefined) {
          bytes += Buffer.byteLength(JSON.stringify(res.tools ?? []));
          if (bytes > opts.maxMessageBytes) {
            io.tooLarge ??= new MessageTooLarge(`tools/list (${page + 1} pages)`, opts.maxMessageBytes, bytes);
            void client.close().catch(() => {});
            throw io.tooLarge;
          }
        }
        out.push(...res.tools);
        if (page === 0) {
          const r = res as { ttlMs?: unknown; cacheScope?: unknown };
          hint = {
            ...(typeof r.ttlMs === 'number' && Number.isFinite(r.ttlMs) ? { ttlMs: Math.max(0, r.ttlMs) } : {}),
            ...(typeof r.cacheScope === 'string' ? { cacheScope: r.cacheScope } : {}),
          };
        }
        cursor = res.nextCursor;
        // an empty-string cursor is a valid cursor, not the end (MCP pagination)
        if (cursor === undefined || cursor === null) {
          listHint = hint;
          return out;
        }
        if (seen.has(cursor)) throw new Error(`tools/list pagination loops (cursor ${JSON.stringify(cursor)} repeated)`);
        seen.add(cursor);
      }
      throw new Error('tools/list returned more than 10000 pages');
    },
    async callTool(name, args, o) {
      const params: Record<string, unknown> = { name, arguments: args };
      if (o?.meta) params._meta = o.meta;
      return (await client.callTool(params as never, {
        timeout: o?.timeoutMs ?? timeoutMs,
        signal: o?.signal,
        ...(o?.onprogress ? { onprogress: o.onprogress as never, resetTimeoutOnProgress: true, maxTotalTimeout: o.maxTotalTimeoutMs } : {}),
      })) as CallResult;
    },
    lastListHint: () => listHint,
    stderrText: () => io.stderr,
    limitExceeded: () => io.tooLarge,
    async close() {
      await client.close().catch(() => {});
    },
  };
  return conn;
}

/** the stderr tail and the first over-limit message of one connection (the transport writes, the connection reads) */
interface StreamState {
  stderr: string;
  tooLarge?: MessageTooLarge;
}

/** The SDK transport of a target: stdio (stderr kept, stdout bounded) or streamable HTTP / SSE (responses bounded). */
function openTransport(
  target: McpTarget,
  opts: ConnectOptions,
  io: StreamState,
): StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport {
  if (target.kind === 'stdio') {
    const st = new StdioClientTransport({
      command: target.command,
      args: target.args ?? [],
      env: { ...getDefaultEnvironment(), ...(target.env ?? {}) },
      cwd: target.cwd,
      stderr: opts.stderr ?? 'pipe',
    });
    const s = st.stderr as Readable | null;
    if (s) {
      s.on('data', (d: Buffer) => {
        io.stderr += d.toString('utf8');
        if (io.stderr.length > 1_000_000) io.stderr = io.stderr.slice(-500_000);
      });
    }
    if (opts.maxMessageBytes !== undefined) limitStdio(st, opts.maxMessageBytes, (e) => (io.tooLarge ??= e));
    return st;
  } else {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      throw new Error(`invalid MCP URL: ${JSON.stringify(target.url)}`);
    }
    const requestInit = target.headers ? { headers: target.headers } : undefined;
    const limited = opts.maxMessageBytes !== undefined ? limitedFetch(opts.maxMessageBytes, (e) => (io.tooLarge ??= e)) : undefined;
    return target.kind === 'http'
      ? new StreamableHTTPClientTransport(url, { requestInit, ...(limited ? { fetch: limited } : {}) })
      : new SSEClientTransport(url, { requestInit, eventSourceInit: target.headers ? ({ headers: target.headers } as never) : undefined });
  }
}

/**
 * Replace the SDK stdio transport's read buffer (which re-concatenates its whole buffer on every
 * chunk) with one that keeps the pieces of the line in progress and, once that line passes `max`
 * bytes, reports it, drops everything after and stops reading the child's stdout; the SDK then
 * closes the transport. Reaches into the SDK transport; if its shape changes, the SDK's own
 * (10 MiB) limit is what remains.
 */
function limitStdio(t: StdioClientTransport, max: number, over: (e: MessageTooLarge) => void): void {
  const inner = t as unknown as { _readBuffer?: unknown; _process?: { stdout?: Readable | null } };
  if (!inner._readBuffer) return;
  let pieces: Buffer[] = [];
  let pending = 0;
  const lines: Buffer[] = [];
  let stopped = false;
  inner._readBuffer = {
    append(chunk: Buffer) {
      if (stopped) return;
      let from = 0;
      for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
        if (pending + nl - from > max) break;
        pieces.push(chunk.subarray(from, nl));
        lines.push(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces));
        pieces = [];
        pending = 0;
        from = nl + 1;
      }
      const rest = chunk.length - from;
      if (pending + rest > max) {
        stopped = true;
        const seen = pending + rest;
        pieces = [];
        pending = 0;
        inner._process?.stdout?.destroy();
        const e = new MessageTooLarge('a message', max, seen);
        over(e);
        throw e;
      }
      if (rest > 0) {
        pieces.push(chunk.subarray(from));
        pending += rest;
      }
    },
    readMessage() {
      while (lines.length) {
        const line = lines.shift()!.toString('utf8').replace(/\r$/, '');
        try {
          return deserializeMessage(line);
        } catch (e) {
          if (e instanceof SyntaxError) continue;
          throw e;
        }
      }
      return null;
    },
    clear() {
      pieces = [];
      pending = 0;
      lines.length = 0;
    },
  };
}

/**
 * fetch whose POST response bodies stop at `max` bytes (Content-Length above it is refused before
 * reading): the SDK's streamable-HTTP transport reads a whole response into memory.
 */
function limitedFetch(max: number, over: (e: MessageTooLarge) => void): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method !== 'POST' || !res.body || res.status < 200 || res.status >= 300) return res;
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > max) {
      await res.body.cancel().catch(() => {});
      const e = new MessageTooLarge('a response', max, declared);
      over(e);
      throw e;
    }
    let seen = 0;
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctl) {
          seen += chunk.byteLength;
          if (seen > max) {
            const e = new MessageTooLarge('a response', max, seen);
            over(e);
            ctl.error(e);
            return;
          }
          ctl.enqueue(chunk);
        },
      }),
    );
    const out = new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(out, 'url', { value: res.url });
    return out;
  };
}

/** Collect (up to 3) non-JSON stdout lines of a stdio child. Reaches into the SDK transport's child process; no-op if absent. */
function watchStdoutGarbage(t: StdioClientTransport, sink: string[]): void {
  const start = t.start.bind(t);
  t.start = async () => {
    await start();
    const out = (t as unknown as { _process?: { stdout?: Readable | null } })._process?.stdout;
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0 && sink.length < 3) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line) continue;
        try {
          JSON.parse(line);
        } catch {
          sink.push(line.slice(0, 120));
        }
      }
      if (sink.length >= 3 || buf.length > 65_536) out?.off('data', onData);
    };
    out?.on('data', onData);
  };
}

/**
 * The reason of a failed connect in one line: the HTTP status (the SDK puts it in `data`) and, for
 * 404/405, a hint at the other HTTP transport; never an empty message.
 */
export function httpReason(e: unknown, target: McpTarget): string {
  const err = e as { message?: string; name?: string; data?: { status?: number; statusText?: string } };
  const msg = err?.message || err?.name || 'no reason given';
  const status = err?.data?.status;
  if (target.kind === 'stdio' || typeof status !== 'number') return msg;
  const hint =
    status === 404 || status === 405
      ? target.kind === 'http'
        ? ' (no streamable-HTTP endpoint here: an SSE-only server? try the SSE transport)'
        : ' (no SSE endpoint here: try streamable HTTP)'
      : '';
  return `HTTP ${status}${err.data?.statusText ? ` ${err.data.statusText}` : ''}: ${msg}${hint}`;
}

/** Concatenated text of all text content blocks of a tool result. */
export function resultText(r: CallResult): string {
  return (r.content ?? [])
    .filter((c) => c.type === 'text' && typeof c.text === 'string')
    .map((c) => c.text as string)
    .join('');
}
