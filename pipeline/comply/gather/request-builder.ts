/**
 * The one canonical request builder. Every probe starts from a conformant request of its era
 * (modern: full `_meta` envelope + standard headers; legacy: session headers after initialize)
 * and a negative probe changes exactly one field of it (`omitMeta`, `headers` overrides).
 */
import { MODERN, type Revision } from '../types.ts';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, META_SERVER_INFO } from '../../mcp/protocol.ts';

/** the `_meta` keys (pipeline/mcp/protocol.ts) under the prober's short names */
export const K_VERSION = META_PROTOCOL_VERSION;
export const K_CAPS = META_CLIENT_CAPABILITIES;
export const K_INFO = META_CLIENT_INFO;
export const K_SERVER_INFO = META_SERVER_INFO;
export const CLIENT_INFO = { name: 'mcpgauge-comply', version: '0.1.0' };

export type Obj = Record<string, unknown>;

export interface BuildOptions {
  /** modern: drop these `_meta` keys ('*' = the whole `_meta`) */
  omitMeta?: Array<typeof K_VERSION | typeof K_CAPS | typeof K_INFO | '*'>;
  /** modern: override `_meta` values */
  meta?: Obj;
  /** header overrides; null removes the header */
  headers?: Record<string, string | null>;
}

export interface Built {
  message: Obj;
  headers: Record<string, string>;
}

export interface EnvelopeState {
  revision: Revision;
  /** legacy: negotiated version and session id once initialize answered */
  negotiated?: string;
  sessionId?: string;
  /** user headers (-H, --auth), sent on every HTTP request */
  userHeaders: Record<string, string>;
}

/** Value of an Mcp-Name / Mcp-Param header: the base64 sentinel when not plain ASCII. */
export function headerValue(v: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x20-\x7e]*$/.test(v) && v.trim() === v && !/^=\?base64\?/.test(v)) return v;
  return `=?base64?${Buffer.from(v, 'utf8').toString('base64')}?=`;
}

export function modernMeta(): Obj {
  return { [K_VERSION]: MODERN, [K_CAPS]: {}, [K_INFO]: { ...CLIENT_INFO } };
}

/** A conformant request of the era, then the one-field change `opts` asks for. */
export function build(st: EnvelopeState, id: string | number | null, method: string, params: Obj = {}, opts: BuildOptions = {}): Built {
  const modern = st.revision === MODERN;
  const p: Obj = { ...params };
  if (modern) {
    let meta: Obj | undefined = { ...modernMeta(), ...(opts.meta ?? {}) };
    for (const k of opts.omitMeta ?? []) {
      if (k === '*') meta = undefined;
      else delete meta![k];
    }
    if (meta) p._meta = { ...(params._meta as Obj | undefined), ...meta };
  } else if (opts.meta) {
    p._meta = { ...(params._meta as Obj | undefined), ...opts.meta };
  }
  const message: Obj = { jsonrpc: '2.0' };
  if (id !== null) message.id = id;
  message.method = method;
  if (Object.keys(p).length || modern || method === 'initialize') message.params = p;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    ...st.userHeaders,
  };
  if (modern) {
    headers['MCP-Protocol-Version'] = MODERN;
    headers['Mcp-Method'] = method;
    if ((method === 'tools/call' || method === 'prompts/get') && typeof params.name === 'string')
      headers['Mcp-Name'] = headerValue(params.name);
    if (method === 'resources/read' && typeof params.uri === 'string') headers['Mcp-Name'] = headerValue(params.uri);
  } else {
    if (st.negotiated) headers['MCP-Protocol-Version'] = st.negotiated;
    if (st.sessionId) headers['Mcp-Session-Id'] = st.sessionId;
  }
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === k.toLowerCase()) delete headers[existing];
    if (v !== null) headers[k] = v;
  }
  return { message, headers };
}

/** The legacy initialize request. */
export function initializeParams(version: string): Obj {
  return { protocolVersion: version, capabilities: {}, clientInfo: { ...CLIENT_INFO } };
}
