/**
 * HTTP hygiene shared by every loopback server (the fixture and the reference proxy): one
 * loopback test, one Origin/CORS policy and one Host (DNS-rebinding) guard, JSON and JSON-RPC
 * error replies, listen and close.
 */
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { localhostAllowedHostnames, localhostAllowedOrigins, validateOriginHeader } from '@modelcontextprotocol/server';
import { hostHeaderValidation } from '@modelcontextprotocol/node';

import { isLoopbackHost } from './loopback.ts';
import { listenProblem } from './port.ts';
export { isLoopbackHost };

/** `host` as it appears in a URL (IPv6 in brackets). */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** A JSON reply (Content-Length set); ends the response when headers already went out. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A JSON-RPC error reply with id null; destroys the socket when headers already went out. */
export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } }, headers);
}

/** Listen on host:port (0 = a free port); resolves with the bound port, rejects with one line naming host and port ("port H:P is in use"), `code` kept. */
export function listen(server: Server, port: number, host: string, what = 'serve'): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      const err: NodeJS.ErrnoException = new Error(`${what} failed: ${listenProblem(host, port, e)}`);
      if (e.code) err.code = e.code;
      reject(err);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stop accepting, drop every open connection, resolve once closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}

/** Request headers a browser client may send (CORS preflight answer). */
export const CORS_ALLOW_HEADERS =
  'Content-Type, Accept, Authorization, X-API-Key, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID';
/** Response headers a browser client may read. */
export const CORS_EXPOSE_HEADERS = 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate';

/**
 * The Origin policy of a loopback server: the localhost origins (any port) plus `extraHosts`.
 * A request with a foreign Origin is refused with 403 and a JSON-RPC error naming it (the spec's
 * DNS-rebinding defence); an allowed Origin gets CORS headers echoing that one origin (never `*`).
 * A request with no Origin (a non-browser client) is served.
 */
export interface OriginPolicy {
  allows(origin: string): boolean;
  /** false when it answered 403 */
  guard(req: IncomingMessage, res: ServerResponse): boolean;
  /** CORS headers for an allowed Origin (none otherwise) */
  cors(req: IncomingMessage): Record<string, string>;
}

export function originPolicy(extraHosts: readonly string[] = []): OriginPolicy {
  const allowed = [...localhostAllowedOrigins(), ...extraHosts];
  const allows = (origin: string) => validateOriginHeader(origin, allowed).ok;
  return {
    allows,
    guard(req, res) {
      const origin = req.headers.origin;
      if (origin === undefined || allows(origin)) return true;
      sendJsonRpcError(res, 403, -32000, `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`);
      return false;
    },
    cors(req): Record<string, string> {
      const origin = req.headers.origin;
      if (!origin || !allows(origin)) return {};
      return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS };
    },
  };
}

/**
 * The Host-header guard (DNS rebinding) for a server bound to loopback: localhost names plus
 * `extraHosts`; null for a non-loopback bind (reached under names we cannot know).
 */
export function hostGuard(
  bindHost: string,
  extraHosts: readonly string[] = [],
): ((req: IncomingMessage, res: ServerResponse) => boolean) | null {
  return isLoopbackHost(bindHost) ? hostHeaderValidation([...localhostAllowedHostnames(), ...extraHosts]) : null;
}
