/**
 * Legacy (2025-11-25) streamable-HTTP sessions of the proxy. A legacy client's
 * `notifications/cancelled` arrives as its own POST; only a session ties it to the call it names,
 * so legacy clients get sessions (Mcp-Session-Id) and the SDK aborts the cancelled handler, which
 * cancels the upstream call. Requests of the 2026-07-28 era, and legacy requests sent without a
 * session (other than initialize), stay on the stateless handler.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { httpEra } from '../mcp/protocol.ts';
import { invalidEnvelope, invalidRequestBody, INVALID_REQUEST, PARSE_ERROR } from '../mcp/envelope.ts';
import { CONFIG_DEFAULTS } from './config.ts';

/** Largest request body accepted (bytes). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A legacy session with no request for this long is closed. */
export const SESSION_IDLE_MS = 15 * 60_000;

type Stateless = (req: IncomingMessage, res: ServerResponse, body?: unknown) => Promise<void>;

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The bytes all requests in flight have buffered, against one cap (`max_buffered_bytes`): the
 * per-request cap alone lets many slow, half-sent bodies hold any amount of memory together.
 */
export interface BodyBudget {
  readonly max: number;
  /** bytes currently held */
  used(): number;
  /** hold `n` more bytes; false (nothing held) if that would pass the cap */
  take(n: number): boolean;
  release(n: number): void;
}

export function bodyBudget(max: number): BodyBudget {
  let used = 0;
  return {
    max,
    used: () => used,
    take(n) {
      if (used + n > max) return false;
      used += n;
      return true;
    },
    release(n) {
      used = Math.max(0, used - n);
    },
  };
}

/** Seconds a client refused for the global cap is told to wait (Retry-After). */
export const BUSY_RETRY_AFTER_S = 1;

/**
 * Read one request body within the per-request cap (413) and the global budget (503 with
 * Retry-After; the socket is closed so the rest of the body is not read). The bytes are held in
 * the budget while the body is read and released when it is complete, refused or aborted.
 */
async function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  budget: BodyBudget,
): Promise<{ ok: true; body: unknown } | { ok: false }> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const c of req) {
      const n = (c as Buffer).length;
      if (size + n > MAX_BODY_BYTES) {
        jsonRpcError(res, 413, INVALID_REQUEST, `request body exceeds ${MAX_BODY_BYTES} bytes`);
        req.destroy();
        return { ok: false };
      }
      if (!budget.take(n)) {
        refuseBusy(res, budget);
        return { ok: false };
      }
      size += n;
      chunks.push(c as Buffer);
    }
  } catch {
    // the client went away mid-body: nothing to answer
    return { ok: false };
  } finally {
    budget.release(size);
  }
  try {
    return { ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (e) {
    jsonRpcError(res, 400, PARSE_ERROR, `Parse error: ${(e as Error).message}`);
    return { ok: false };
  }
}

/** 503 + Retry-After + a JSON-RPC error, then the connection is closed (the unread body stays unread). */
function refuseBusy(res: ServerResponse, budget: BodyBudget): void {
  if (!res.headersSent) {
    const text = JSON.stringify({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `server busy: request bodies in flight exceed ${budget.max} bytes (max_buffered_bytes); retry later`,
      },
      id: null,
    });
    res.writeHead(503, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
      'Retry-After': String(BUSY_RETRY_AFTER_S),
      Connection: 'close',
    });
    res.end(text, () => res.socket?.destroy());
  } else res.end();
  // a client that does not read its answer still loses the connection soon
  setTimeout(() => res.socket?.destroy(), 1000).unref();
}

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  idle: NodeJS.Timeout;
}

export interface LegacySessions {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export function legacySessions(
  factory: McpServerFactory,
  stateless: Stateless,
  log: (m: string) => void,
  budget: BodyBudget = bodyBudget(CONFIG_DEFAULTS.max_buffered_bytes),
): LegacySessions {
  const sessions = new Map<string, Session>();
  const touch = (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    clearTimeout(s.idle);
    s.idle = setTimeout(() => void s.transport.close().catch(() => {}), SESSION_IDLE_MS);
    s.idle.unref();
  };
  const open = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, idle: setTimeout(() => {}, 0) });
        touch(id);
      },
      onsessionclosed: (id) => {
        clearTimeout(sessions.get(id)?.idle);
        sessions.delete(id);
      },
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id) {
        clearTimeout(sessions.get(id)?.idle);
        sessions.delete(id);
      }
    };
    transport.onerror = (e) => log(`legacy session: ${e.message}`);
    const server = await factory({ era: 'legacy' } as never);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  return {
    async handle(req, res) {
      const sid = req.headers['mcp-session-id'];
      const id = typeof sid === 'string' ? sid : undefined;
      if (req.method !== 'POST') {
        if (id === undefined) return stateless(req, res);
        const s = sessions.get(id);
        if (!s) return jsonRpcError(res, 404, -32001, 'Session not found');
        touch(id);
        return s.transport.handleRequest(req, res);
      }
      const parsed = await readBody(req, res, budget);
      if (!parsed.ok) return;
      const body = parsed.body;
      // a batch (removed in 2025-06-18; the SDK's legacy fallback would run it) or JSON that is not
      // a JSON-RPC message (the SDK session transport would say -32700): -32600 here, on every path
      const invalid = invalidEnvelope(body);
      if (invalid) {
        if (res.headersSent) return void res.end();
        const text = JSON.stringify(invalidRequestBody(body, invalid));
        res.writeHead(400, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        return void res.end(text);
      }
      if (httpEra(body, req.headers, 'version') === 'legacy') {
        if (id !== undefined) {
          const s = sessions.get(id);
          if (!s) return jsonRpcError(res, 404, -32001, 'Session not found');
          touch(id);
          return s.transport.handleRequest(req, res, body);
        }
        const first = (Array.isArray(body) ? body[0] : body) as { method?: unknown } | undefined;
        if (first?.method === 'initialize') return open(req, res, body);
      }
      return stateless(req, res, body);
    },
    async close() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => (clearTimeout(s.idle), s.transport.close().catch(() => {}))));
    },
  };
}
