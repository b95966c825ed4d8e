/**
 * HTTP hygiene shared by every loopback server (the fixture and the reference proxy): one
 * loopback test, JSON and JSON-RPC error replies, listen and close.
 */
import { isIP } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server, ServerResponse } from 'node:http';

/**
 * True when `host` (a bind address or Host name, IPv6 with or without brackets) is loopback:
 * `localhost`, any address of 127.0.0.0/8, `::1` (any spelling), or an IPv4-mapped 127.x address.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  const kind = isIP(h);
  if (kind === 4) return h.split('.')[0] === '127';
  if (kind === 6) {
    // the URL parser canonicalizes IPv6 (0:0:0:0:0:0:0:1 -> ::1, ::ffff:127.0.0.1 -> ::ffff:7f00:1)
    const canon = new URL(`http://[${h}]/`).hostname.slice(1, -1);
    return canon === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(canon);
  }
  return false;
}

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
export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } }, headers);
}

/** Listen on host:port (0 = a free port); resolves with the bound port, rejects naming host, port and the error code. */
export function listen(server: Server, port: number, host: string, what = 'serve'): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      const err: NodeJS.ErrnoException = new Error(`${what} failed: cannot listen on ${host}:${port}: ${e.code ?? e.message}`);
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
