/**
 * How the proxy under test is reached: one option for the gate (`--proxy-transport`) and the
 * live stage (`--transport`): streamable HTTP, the deprecated HTTP+SSE transport, or stdio, and
 * the endpoint (a URL template or a path on http://127.0.0.1:{PORT}).
 */
import type { McpTarget } from '../mcp/client.ts';
import { UserError } from '../types.ts';
import { urlTarget } from './proxy-target.ts';

export type ProxyTransport = 'streamable-http' | 'sse' | 'stdio';
export type TransportChoice = 'auto' | ProxyTransport;
export const TRANSPORT_CHOICES: readonly TransportChoice[] = ['auto', 'streamable-http', 'sse', 'stdio'];
/** the path each HTTP transport is served at unless an endpoint says otherwise */
export const DEFAULT_PATHS: Readonly<Record<'streamable-http' | 'sse', string>> = { 'streamable-http': '/mcp', sse: '/sse' };
export const LOOPBACK_ORIGIN = 'http://127.0.0.1:{PORT}';

/** Parse a transport flag value; `allowed` narrows the choices (the live stage's --proxy-url has no stdio). */
export function parseTransport(v: unknown, flag: string, allowed: readonly TransportChoice[] = TRANSPORT_CHOICES): TransportChoice {
  const s = typeof v === 'string' ? v.trim() : v;
  if (typeof s !== 'string' || !(allowed as readonly string[]).includes(s))
    throw new UserError(`${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
  return s as TransportChoice;
}

/**
 * The URL template of an HTTP-served proxy: `endpoint` as given when it is a URL, a path joined to
 * the loopback origin, or the transport's default path.
 */
export function endpointTemplate(transport: 'streamable-http' | 'sse', endpoint?: string): string {
  if (endpoint === undefined || endpoint === '') return `${LOOPBACK_ORIGIN}${DEFAULT_PATHS[transport]}`;
  if (endpoint.startsWith('/')) return `${LOOPBACK_ORIGIN}${endpoint}`;
  if (/^https?:\/\//i.test(endpoint)) return endpoint;
  throw new UserError(`--proxy-endpoint must be a URL (http://…) or a path (/…), got ${JSON.stringify(endpoint)}`);
}

/** An MCP target for an HTTP-served proxy at `url` over `transport` (a bare origin gets the transport's default path). */
export function httpTarget(url: string, transport: 'streamable-http' | 'sse', apiKey?: string): McpTarget & { kind: 'http' | 'sse' } {
  const bare = /^[a-z]+:\/\/[^/]+\/?$/i.test(url.trim());
  const http = urlTarget(url, apiKey);
  if (transport === 'streamable-http') return http;
  return { kind: 'sse', url: bare ? http.url.replace(/\/mcp$/, DEFAULT_PATHS.sse) : http.url, headers: http.headers };
}
