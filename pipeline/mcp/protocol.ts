/**
 * The one home of MCP protocol facts: the revisions, the `_meta` keys of the 2026-07-28
 * per-request envelope, the standard HTTP header names, and how a message's era is read.
 * Every stage (fixture, comply, gate, proxy, live, systems, adapter) imports these from here;
 * no other pipeline file spells a revision date.
 *
 * Summary of the spec (https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle):
 * up to 2025-11-25 a connection opens with an `initialize` handshake that fixes the revision;
 * from 2026-07-28 each request carries its revision (and client capabilities/info) in
 * `params._meta` and, over HTTP, in the `MCP-Protocol-Version` / `Mcp-Method` headers.
 */

/** The last revision with the `initialize` handshake (the "legacy" era). */
export const LEGACY_REVISION = '2025-11-25';
/** The first revision with the per-request `_meta` envelope (the "modern" era). */
export const MODERN_REVISION = '2026-07-28';

/** The two revisions the toolkit speaks, grades and gates on. */
export type Revision = typeof LEGACY_REVISION | typeof MODERN_REVISION;
export const REVISIONS: readonly Revision[] = [LEGACY_REVISION, MODERN_REVISION];

/** Every revision negotiated through `initialize` (a version header naming one is 2025-11-25-era traffic). */
export const HANDSHAKE_REVISIONS: readonly string[] = ['2024-11-05', '2025-03-26', '2025-06-18', LEGACY_REVISION];

/** The era a connection or request is served in. */
export type Era = 'legacy' | 'modern';

/** What a client speaks: 'legacy' = the 2025-11-25 handshake; the modern revision pinned; 'auto' = probe. */
export type ProtocolChoice = 'legacy' | 'auto' | typeof MODERN_REVISION;
export const PROTOCOL_CHOICES: readonly ProtocolChoice[] = ['legacy', 'auto', MODERN_REVISION];
/** A choice without probing (the gate pins one). */
export type PinnedProtocol = Exclude<ProtocolChoice, 'auto'>;

/** Prefix of every protocol-owned `_meta` key (anything else is the caller's own data). */
export const META_PREFIX = 'io.modelcontextprotocol/';
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** Standard HTTP headers, lower-case as node:http exposes them. */
export const HEADER_PROTOCOL_VERSION = 'mcp-protocol-version';
export const HEADER_METHOD = 'mcp-method';

type Headers = Record<string, string | string[] | undefined>;
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** true when `v` names the modern revision or a later one. */
export function isModernRevision(v: unknown): v is string {
  return typeof v === 'string' && v >= MODERN_REVISION;
}

/** `params._meta` of a message (the first one of a batch), when it is an object. */
export function metaOf(msg: unknown): Obj | undefined {
  const one = Array.isArray(msg) ? msg[0] : msg;
  const params = isObj(one) ? one.params : undefined;
  return isObj(params) && isObj(params._meta) ? params._meta : undefined;
}

/** The `_meta` protocolVersion of a message, whatever its type (undefined when absent). */
export function metaVersion(msg: unknown): unknown {
  return metaOf(msg)?.[META_PROTOCOL_VERSION];
}

/**
 * How an HTTP message's era is read. The fronts differ on purpose, each keeping the behaviour
 * its tests pin:
 * - `version`: the `_meta` version when it is a string, else the MCP-Protocol-Version header;
 *   modern when that names 2026-07-28 or later (the reference proxy's session front).
 * - `version-or-method`: as `version`, and without a `_meta` version a bare Mcp-Method header
 *   is modern too (the fixture's break path and its security front: the rate-limit key).
 * - `envelope`: any sign of the 2026-07-28 envelope, whatever version it names (the Mcp-Method
 *   header, or the `_meta` version key present), or a 2026-07-28+ version header: an unsupported
 *   version in the envelope is then answered -32022, never taken for session traffic (the
 *   fixture's stateful front).
 */
export type EraRule = 'version' | 'version-or-method' | 'envelope';

/** The era of an HTTP message (`body` may be undefined: headers only). */
export function httpEra(body: unknown, headers: Headers, rule: EraRule): Era {
  const header = headers[HEADER_PROTOCOL_VERSION];
  const method = headers[HEADER_METHOD] !== undefined;
  if (rule === 'envelope') {
    const meta = metaOf(body);
    return method || (meta !== undefined && META_PROTOCOL_VERSION in meta) || isModernRevision(header) ? 'modern' : 'legacy';
  }
  const v = metaVersion(body);
  if (typeof v === 'string') return isModernRevision(v) ? 'modern' : 'legacy';
  return isModernRevision(header) || (rule === 'version-or-method' && method) ? 'modern' : 'legacy';
}

/**
 * stdio and SSE: the era a connection's opening request fixes (as the SDK's serveStdio does):
 * modern when it is not `initialize` and carries a `_meta` version (`exact`: only when that
 * version is the modern revision itself), else legacy.
 */
export function openingEra(msg: { method?: unknown; params?: unknown }, opts: { exact?: boolean } = {}): Era {
  if (msg.method === 'initialize') return 'legacy';
  const v = metaVersion(msg);
  return (opts.exact ? v === MODERN_REVISION : typeof v === 'string') ? 'modern' : 'legacy';
}
