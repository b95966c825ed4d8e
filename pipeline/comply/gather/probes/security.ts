/**
 * Probes of the security checks.
 * - CORS: a preflight from a foreign origin (HTTP).
 * - auth (HTTP, stage 2-4): the cheap request without a credential, with a garbage one, with the
 *   user's token moved into ?access_token=, tools/list without a credential, a session id without
 *   a credential; then the RFC 9728 metadata document (challenge URL, else the well-known URIs).
 * - sessions (legacy HTTP): two more initialize requests, for three session ids to compare.
 * - tool inputs (invasive): one payload per class to one read-only tool, a conformant twin, and
 *   undeclared arguments; never sent to a tool without readOnlyHint:true.
 * - the 1 MB argument (invasive, stage 5) and the liveness probe after everything (6).
 * - a burst of tool calls to a read-only tool (invasive, HTTP) after the liveness probe.
 * - TLS (https targets): the opening request over plain http to the same host and port, with no
 *   user header at all (no credential, no -H value, no session id, no query string crosses in clear).
 */
import { initializeParams, type Obj } from '../request-builder.ts';
import { LEGACY } from '../../types.ts';
import { HTTP, L, M, cheap, listOf, pickTool, req, type Probe, type ProbeCtx, type ProbeOut } from './kit.ts';
import {
  BURST_SIZE,
  GARBAGE_TOKEN,
  INJECTIONS,
  PRM_WELL_KNOWN,
  bearerChallenge,
  pickInjectionTarget,
  prmOf,
  type InjectionKind,
} from './security-kit.ts';

/** the oversized tool argument (invasive) */
export const OVERSIZED_BYTES = 1024 * 1024;

/**
 * User headers that carry a credential besides Authorization (an API key header such as
 * X-API-Key, Api-Key, X-Auth-Token): a probe that withholds or replaces the credential drops
 * them too, or a server that takes either would be credited as accepting unauthenticated calls.
 */
const CREDENTIAL_HEADER = /(^|-)(api-?key|apikey|auth|auth-token|token|access-token)$/i;
function withoutCredentials(c: ProbeCtx): Record<string, null> {
  const out: Record<string, null> = { Authorization: null };
  for (const k of Object.keys(c.env.userHeaders)) if (CREDENTIAL_HEADER.test(k)) out[k] = null;
  return out;
}
/** tool-input payloads: after the raw-byte stage, before the 1 MB argument (5), so a crash is pinned on the probe that caused it */
const PAYLOAD_STAGE = 4.5;
/** a liveness probe right after the payloads (the core one runs after the 1 MB argument too) */
const PAYLOAD_ALIVE_STAGE = 4.6;
/** the burst: after the liveness probe (6), before the legacy session is deleted (7) */
const BURST_STAGE = 6.5;

/**
 * The cheapest request that needs nothing but the credential: modern, the cheap request; legacy,
 * a fresh initialize without the session id (a session-less ping could be refused for the missing
 * session before the credential is looked at, and one carrying the session mixes in session-as-auth).
 */
function opening(c: ProbeCtx, auth: string | null): ProbeOut {
  const headers: Record<string, string | null> = { ...withoutCredentials(c), Authorization: auth };
  if (c.rev !== LEGACY) return cheap(c, { headers });
  return req(c, 'initialize', initializeParams(LEGACY), { headers: { ...headers, 'Mcp-Session-Id': null, 'MCP-Protocol-Version': null } });
}

/** the user's bearer token (from --auth / -H Authorization), or null */
function userToken(c: ProbeCtx): string | null {
  const k = Object.keys(c.env.userHeaders).find((h) => h.toLowerCase() === 'authorization');
  const m = k ? /^bearer\s+(\S+)$/i.exec(c.env.userHeaders[k]) : null;
  return m ? m[1] : null;
}

/** a GET for a metadata document: the user's headers go only to the target's own origin, never a credential */
function metadataGet(c: ProbeCtx, url: string): ProbeOut {
  const same = c.url !== undefined && new URL(url).origin === new URL(c.url).origin;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (same)
    for (const [k, v] of Object.entries(c.env.userHeaders))
      if (k.toLowerCase() !== 'authorization' && !CREDENTIAL_HEADER.test(k)) headers[k] = v;
  return { built: { message: {}, headers }, httpMethod: 'GET', url, expect: 'none', document: true };
}

/** the metadata URL the 401 challenge names (http/https only) */
function challengeUrl(c: ProbeCtx): string | null {
  const h = c.ex('auth-none')?.response?.headers?.['www-authenticate'];
  const u = bearerChallenge(h)?.resource_metadata;
  if (!u) return null;
  try {
    const p = new URL(u);
    return p.protocol === 'http:' || p.protocol === 'https:' ? p.href : null;
  } catch {
    return null;
  }
}

/** An https target's plain-http twin: same host, same port (443 written out when implicit), path only. */
export function plainTwinUrl(target: string): string | null {
  const u = new URL(target);
  if (u.protocol !== 'https:') return null;
  return `http://${u.hostname}:${u.port || '443'}${u.pathname}`;
}

/** the opening request with every user header removed (they may hold secrets: plain http is readable on the way) */
function credentialFree(c: ProbeCtx): ProbeOut {
  const headers: Record<string, null> = { 'Mcp-Session-Id': null };
  for (const k of Object.keys(c.env.userHeaders)) headers[k] = null;
  if (c.rev !== LEGACY) return cheap(c, { headers });
  return req(c, 'initialize', initializeParams(LEGACY), { headers: { ...headers, 'MCP-Protocol-Version': null } });
}

const authUsed = (c: ProbeCtx) => userToken(c) !== null || [401, 403].includes(c.ex('auth-none')?.response?.status ?? 0);

/** the burst's call: a read-only tool without required arguments, else the injection target's twin call (read-only too) */
function burstTarget(tools: Obj[]): { tool: string; args: Obj } | null {
  const bare = tools.find((x) => {
    const s = x.inputSchema as { required?: unknown } | undefined;
    return (
      typeof x.name === 'string' &&
      (x.annotations as Obj | undefined)?.readOnlyHint === true &&
      !(Array.isArray(s?.required) && s.required.length)
    );
  });
  if (bare) return { tool: bare.name as string, args: {} };
  const t = pickInjectionTarget(tools, 'any');
  return t ? { tool: t.tool, args: { ...t.base, [t.arg]: 'mcpgauge' } } : null;
}

function inject(kind: InjectionKind): Probe {
  const want = kind === 'ssrf' ? 'url' : kind === 'traversal' ? 'path' : 'any';
  return {
    id: INJECTIONS[kind].probe,
    stage: PAYLOAD_STAGE,
    invasive: true,
    build: (c) => {
      const t = pickInjectionTarget(listOf(c, 'tools-list', 'tools'), want);
      return t ? req(c, 'tools/call', { name: t.tool, arguments: { ...t.base, [t.arg]: INJECTIONS[kind].payload } }) : null;
    },
  };
}

export const SECURITY_PROBES: readonly Probe[] = [
  // CORS
  {
    id: 'cors-preflight',
    stage: 2,
    wires: HTTP,
    build: (c) => ({
      ...cheap(c, { headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST' } }),
      httpMethod: 'OPTIONS',
    }),
  },
  // auth
  { id: 'auth-none', stage: 2, wires: HTTP, build: (c) => opening(c, null) },
  { id: 'auth-garbage', stage: 2, wires: HTTP, build: (c) => opening(c, `Bearer ${GARBAGE_TOKEN}`) },
  {
    id: 'auth-query',
    stage: 2,
    wires: HTTP,
    build: (c) => {
      const tok = userToken(c);
      if (!tok || !c.url) return null;
      const u = new URL(c.url);
      u.searchParams.set('access_token', tok);
      return { ...opening(c, null), url: u.href };
    },
  },
  {
    id: 'auth-none-list',
    stage: 2,
    revisions: M,
    wires: HTTP,
    build: (c) => (userToken(c) ? req(c, 'tools/list', {}, { headers: withoutCredentials(c) }) : null),
  },
  {
    id: 'session-no-auth',
    stage: 2,
    revisions: L,
    wires: HTTP,
    build: (c) => (userToken(c) && c.env.sessionId ? cheap(c, { headers: withoutCredentials(c) }) : null),
  },
  {
    id: 'prm',
    stage: 3,
    wires: HTTP,
    build: (c) => {
      if (!c.url || !authUsed(c)) return null;
      const u = new URL(c.url);
      return metadataGet(c, challengeUrl(c) ?? `${u.origin}${PRM_WELL_KNOWN}${u.pathname === '/' ? '' : u.pathname}`);
    },
  },
  {
    id: 'prm-root',
    stage: 4,
    wires: HTTP,
    build: (c) => {
      if (!c.url || challengeUrl(c) || !c.ex('prm') || prmOf(c.ex('prm'))) return null;
      const u = new URL(c.url);
      return u.pathname === '/' ? null : metadataGet(c, `${u.origin}${PRM_WELL_KNOWN}`);
    },
  },
  // TLS: is the https endpoint also served in clear on the same port?
  {
    id: 'tls-plain',
    stage: 2,
    wires: HTTP,
    build: (c) => {
      const url = c.url ? plainTwinUrl(c.url) : null;
      return url ? { ...credentialFree(c), url } : null;
    },
  },
  // sessions (legacy HTTP): more ids from fresh initialize requests
  ...(['session-init-2', 'session-init-3'] as const).map(
    (id): Probe => ({
      id,
      stage: 2,
      revisions: L,
      wires: HTTP,
      build: (c) =>
        c.env.sessionId
          ? req(c, 'initialize', initializeParams(c.rev), { headers: { 'Mcp-Session-Id': null, 'MCP-Protocol-Version': null } })
          : null,
    }),
  ),
  // tool inputs (invasive)
  {
    id: 'inject-twin',
    stage: PAYLOAD_STAGE,
    invasive: true,
    build: (c) => {
      const t = pickInjectionTarget(listOf(c, 'tools-list', 'tools'), 'any');
      return t ? req(c, 'tools/call', { name: t.tool, arguments: { ...t.base, [t.arg]: 'mcpgauge' } }) : null;
    },
  },
  inject('command'),
  inject('sql'),
  inject('traversal'),
  inject('ssrf'),
  {
    id: 'extra-params',
    stage: PAYLOAD_STAGE,
    invasive: true,
    build: (c) => {
      const t = pickInjectionTarget(listOf(c, 'tools-list', 'tools'), 'any');
      if (!t) return null;
      const args: Obj = { ...t.base, [t.arg]: 'mcpgauge', mcpgauge_undeclared: 'x' };
      // an own "__proto__" key (what JSON.parse makes of it), not the prototype
      Object.defineProperty(args, '__proto__', {
        value: { mcpgauge_polluted: true },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return req(c, 'tools/call', { name: t.tool, arguments: args });
    },
  },
  { id: 'inject-alive', stage: PAYLOAD_ALIVE_STAGE, invasive: true, build: (c) => (c.ex('inject-twin') ? cheap(c) : null) },
  // a burst of calls after the liveness probe (invasive): to a read-only tool only (see burstTarget)
  ...Array.from(
    { length: BURST_SIZE },
    (_, i): Probe => ({
      id: `burst-${i}`,
      stage: BURST_STAGE,
      invasive: true,
      wires: HTTP,
      build: (c) => {
        const t = burstTarget(listOf(c, 'tools-list', 'tools'));
        return t ? req(c, 'tools/call', { name: t.tool, arguments: t.args }) : null;
      },
    }),
  ),
  // the 1 MB argument (invasive), then liveness after everything
  {
    id: 'oversized-input',
    stage: 5,
    build: (c) => {
      const t = pickTool(listOf(c, 'tools-list', 'tools'));
      return t ? req(c, 'tools/call', { name: t.name, arguments: { ...t.args, mcpgauge_pad: 'x'.repeat(OVERSIZED_BYTES) } }) : null;
    },
  },
  { id: 'alive', stage: 6, build: (c) => cheap(c) },
];
