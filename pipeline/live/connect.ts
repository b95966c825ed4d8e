/** Stage 3 of the live stage: the connection to the proxy (streamable HTTP, falling back to HTTP+SSE under --transport auto). */
import { connectMcp, describeTarget, type McpConnection, type McpTarget } from '../mcp/client.ts';
import { UserError } from '../types.ts';
import type { LiveReport } from '../report/index.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS, type OpenedTarget } from './proxy-under-test.ts';
import { oneLine } from './calls.ts';
import type { LiveOptions } from './types.ts';

/** Stage 3: connect to the proxy; the server's self-description. */
export async function connectProxy(
  target: OpenedTarget,
  opts: LiveOptions,
  log: (m: string) => void,
): Promise<{ conn: McpConnection; proxyInfo: LiveReport['proxy'] }> {
  let conn: McpConnection;
  const co = { timeoutMs: opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, protocol: opts.protocol ?? 'legacy' } as const;
  try {
    conn = await connectMcp(target.proxy, co);
  } catch (e) {
    const msg = (e as Error).message;
    // --transport auto: no streamable-HTTP endpoint (404/405) -> the deprecated HTTP+SSE transport
    const p = target.proxy;
    if (target.kind === 'url' && (opts.transport ?? 'auto') === 'auto' && p.kind === 'http' && /HTTP 40[45]\b/.test(msg)) {
      const sse = sseFallback(p);
      log(`live: streamable HTTP at ${p.url} answered ${/HTTP (40[45])/.exec(msg)![1]}; trying SSE at ${describeTarget(sse)}`);
      try {
        conn = await connectMcp(sse, co);
      } catch (e2) {
        throw new UserError(`live: ${oneLine(msg, 300)}; SSE fallback: ${oneLine((e2 as Error).message, 300)}`);
      }
      target.proxy = sse;
      log(`live: connected over SSE (${describeTarget(sse)})`);
    } else throw new UserError(`live: ${oneLine(msg, 500)}`);
  }
  const sv = conn.client.getServerVersion();
  const proxyInfo: LiveReport['proxy'] = {};
  if (sv?.name) proxyInfo.server_name = sv.name;
  if (sv?.version) proxyInfo.server_version = sv.version;
  if (conn.protocolVersion) proxyInfo.protocol_version = conn.protocolVersion;
  if (target.retriever) proxyInfo.retriever = target.retriever;
  return { conn, proxyInfo };
}

/** The SSE target for a streamable-HTTP URL: same URL, or /sse when /mcp was only the default path. */
function sseFallback(t: Extract<McpTarget, { kind: 'http' }>): Extract<McpTarget, { kind: 'sse' }> {
  const u = new URL(t.url);
  if (u.pathname === '/mcp') u.pathname = '/sse';
  return { kind: 'sse', url: u.toString(), headers: t.headers };
}
