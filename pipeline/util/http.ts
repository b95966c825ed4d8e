/**
 * HTTP hygiene shared by every loopback server (the fixture and the reference proxy): one
 * loopback test, JSON and JSON-RPC error replies, listen and close. The Origin/CORS policy and
 * the Host (DNS-rebinding) guard are in ./http-guard.ts: they load the SDK's HTTP package, which a
 * process that serves no HTTP (the fixture over stdio) should not pay for at start-up.
 */
import type { AddressInfo } from 'node:net';
import type { Server, ServerResponse } from 'node:http';

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
