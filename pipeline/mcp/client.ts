/**
 * The one MCP client wrapper every stage uses (corpus freeze, fixture tests, proxy upstreams,
 * live stage, later the gate and the prober). Built on the official SDK v2 client.
 */
import { VERSION } from '../constants.ts';
import { Client, StreamableHTTPClientTransport, SSEClientTransport } from '@modelcontextprotocol/client';
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
  callTool(
    name: string,
    args: Record<string, unknown>,
    opts?: { timeoutMs?: number; signal?: AbortSignal; meta?: Record<string, unknown> },
  ): Promise<CallResult>;
  /** collected stderr of a stdio child (when stderr = 'pipe') */
  stderrText(): string;
  close(): Promise<void>;
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
  const client = new Client(
    { name: opts.clientName ?? 'mcpgauge', version: VERSION },
    { capabilities: {}, versionNegotiation },
  );
  let stderrBuf = '';
  let transport: StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport;
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
        stderrBuf += d.toString('utf8');
        if (stderrBuf.length > 1_000_000) stderrBuf = stderrBuf.slice(-500_000);
      });
    }
    transport = st;
  } else {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      throw new Error(`invalid MCP URL: ${JSON.stringify(target.url)}`);
    }
    const requestInit = target.headers ? { headers: target.headers } : undefined;
    transport =
      target.kind === 'http'
        ? new StreamableHTTPClientTransport(url, { requestInit })
        : new SSEClientTransport(url, { requestInit, eventSourceInit: target.headers ? ({ headers: target.headers } as never) : undefined });
  }
  // stdout lines that are not JSON while connecting (the SDK skips them silently): a server that
  // logs to stdout or is not an MCP server at all otherwise shows only as a timeout
  const unparsed: string[] = [];
  if (transport instanceof StdioClientTransport) watchStdoutGarbage(transport, unparsed);
  try {
    await client.connect(transport as never, { timeout: timeoutMs });
  } catch (e) {
    await client.close().catch(() => {});
    const extra = stderrBuf.trim() ? ` (stderr: ${stderrBuf.trim().split('\n').slice(-3).join(' | ')})` : '';
    const notMcp = unparsed.length ? `its stdout was not MCP (first line: ${JSON.stringify(unparsed[0])}); ` : '';
    throw new Error(`cannot connect to ${describeTarget(target)}: ${notMcp}${httpReason(e, target)}${extra}`);
  }
  unparsed.length = 0;
  const conn: McpConnection = {
    client,
    target,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    pid: transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined,
    async listAllTools(o) {
      const out: WireTool[] = [];
      let cursor: string | undefined;
      const seen = new Set<string>();
      for (let page = 0; page < 10_000; page++) {
        // one request per page (client.listTools() without a cursor aggregates at most 64 pages
        // and caches; we want every page over the wire, untouched)
        const res = (await client.request(
          { method: 'tools/list', ...(cursor !== undefined ? { params: { cursor } } : {}) } as never,
          { timeout: o?.timeoutMs ?? timeoutMs } as never,
        )) as { tools: WireTool[]; nextCursor?: string };
        out.push(...res.tools);
        cursor = res.nextCursor;
        // an empty-string cursor is a valid cursor, not the end (MCP pagination)
        if (cursor === undefined || cursor === null) return out;
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
      })) as CallResult;
    },
    stderrText: () => stderrBuf,
    async close() {
      await client.close().catch(() => {});
    },
  };
  return conn;
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
