/**
 * The Origin/CORS policy and the Host (DNS-rebinding) guard of every loopback server (the fixture
 * and the reference proxy), on the SDK's checks. Apart from ./http.ts because it loads
 * @modelcontextprotocol/node (hono, node:http2): only a process that serves HTTP imports it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { localhostAllowedHostnames, localhostAllowedOrigins, validateOriginHeader } from '@modelcontextprotocol/server';
import { hostHeaderValidation } from '@modelcontextprotocol/node';
import { isLoopbackHost } from './loopback.ts';
import { CORS_EXPOSE_HEADERS, sendJsonRpcError } from './http.ts';

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
