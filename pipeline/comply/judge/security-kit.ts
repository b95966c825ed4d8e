/**
 * Shared pieces of the security probes and checks: the payloads and their evidence patterns
 * (a check fails only on evidence, never on an echo of the payload), the safe choice of a tool
 * to send them to (read-only tools only), and the authorization context gate every auth check
 * starts with (authorization is OPTIONAL in MCP: a server that serves without credentials,
 * probed without --auth, is not_applicable, never failed).
 */
import type { Obj } from '../gather/request-builder.ts';
import type { View } from './evidence.ts';
import type { Exchange, Verdict } from '../types.ts';
import { isLoopbackHost } from '../../util/loopback.ts';

/** a credential no server issued (the garbage-token probe) */
export const GARBAGE_TOKEN = 'mcpgauge-invalid-token-5e1c9a';
export const BURST_SIZE = 50;
/** RFC 9728 well-known path (path-inserted form: + the endpoint path) */
export const PRM_WELL_KNOWN = '/.well-known/oauth-protected-resource';
/** the metadata probes, in the order a client tries them */
export const PRM_PROBES = ['prm', 'prm-root'] as const;
export const SESSION_SAMPLES = ['handshake', 'session-init-2', 'session-init-3'] as const;

/** One payload per class, and what only a real flaw would answer (none of it matches the payload itself). */
export const INJECTIONS = {
  command: { probe: 'inject-command', payload: 'mcpgauge; id; cat /etc/passwd; echo $(id)', evidence: /\buid=\d+\([^)]*\)\s*gid=\d+|root:[x*]?:0:0:/ },
  sql: { probe: 'inject-sql', payload: "mcpgauge' OR '1'='1' -- ", evidence: /SQLITE_ERROR|sqlite3?\.\w*Error|SQL syntax.*MySQL|You have an error in your SQL syntax|syntax error at or near|unterminated quoted string|ORA-\d{5}|Unclosed quotation mark|SQLSTATE\[|PG::SyntaxError/i },
  traversal: { probe: 'inject-traversal', payload: '../../../../../../../../../../etc/passwd', evidence: /root:[x*]?:0:0:|\[boot loader\]|; for 16-bit app support/i },
  ssrf: { probe: 'inject-ssrf', payload: 'http://169.254.169.254/latest/meta-data/', evidence: /\bami-id\b|\binstance-id\b|security-credentials|computeMetadata|AccessKeyId/ },
} as const;
export type InjectionKind = keyof typeof INJECTIONS;

type Schema = { type?: unknown; enum?: unknown; const?: unknown; pattern?: unknown; format?: unknown; minimum?: unknown; default?: unknown };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeOf = (s: Schema): string | undefined => (typeof s.type === 'string' ? s.type : Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') as string | undefined) : undefined);
const URL_NAME = /url|uri|endpoint|href|link|webhook|callback/i;
const PATH_NAME = /path|file|dir|folder/i;

/** A value honouring the schema for a required argument (undefined = cannot fill it safely). */
function placeholder(s: Schema, name: string): unknown {
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (s.const !== undefined) return s.const;
  switch (typeOf(s)) {
    case 'string':
      if (s.pattern !== undefined) return undefined;
      return s.format === 'uri' || s.format === 'url' || URL_NAME.test(name) ? 'https://example.com/' : 'mcpgauge';
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return undefined;
  }
}

export interface InjectionTarget {
  tool: string;
  /** the argument the payload goes into */
  arg: string;
  /** the other required arguments, filled from the schema */
  base: Obj;
}

/**
 * The (tool, string argument) a payload goes to: only tools annotated readOnlyHint:true (a payload
 * never reaches a tool that may write or delete), free-form strings first, fewest required
 * arguments first. `want` narrows the argument: URL-like (SSRF) or path-like first (traversal).
 */
export function pickInjectionTarget(tools: Obj[], want: 'any' | 'url' | 'path'): InjectionTarget | null {
  const cands: Array<InjectionTarget & { rank: number }> = [];
  tools.forEach((t, ti) => {
    if (typeof t.name !== 'string' || !isObj(t.annotations) || t.annotations.readOnlyHint !== true) return;
    const schema = isObj(t.inputSchema) ? t.inputSchema : {};
    const props = isObj(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
    const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((x): x is string => typeof x === 'string') : [];
    for (const [arg, s] of Object.entries(props)) {
      if (!isObj(s) || typeOf(s) !== 'string' || Array.isArray(s.enum) || s.const !== undefined || s.pattern !== undefined) continue;
      const urlLike = URL_NAME.test(arg) || s.format === 'uri' || s.format === 'url';
      if (want === 'url' && !urlLike) continue;
      const base: Obj = {};
      let ok = true;
      for (const r of required) {
        if (r === arg) continue;
        const v = placeholder(isObj(props[r]) ? props[r] : {}, r);
        if (v === undefined) ok = false;
        else base[r] = v;
      }
      if (!ok) continue;
      const fit = want === 'path' ? (PATH_NAME.test(arg) ? 0 : 1) : 0;
      cands.push({ tool: t.name, arg, base, rank: fit * 1e6 + (s.format !== undefined && want !== 'url' ? 1e5 : 0) + required.length * 1e3 + ti });
    }
  });
  cands.sort((a, b) => a.rank - b.rank);
  const best = cands[0];
  return best ? { tool: best.tool, arg: best.arg, base: best.base } : null;
}

/** Everything a server answered to a probe, as text (results, errors, raw body). */
export function answerText(ex: Exchange | undefined): string {
  if (!ex?.response) return '';
  return [ex.response.body, ...ex.response.messages.map((m) => JSON.stringify(m))].join('\n');
}

/** The user configured a credential (--auth): the recorded handshake carried an Authorization header. */
export function authConfigured(v: View): boolean {
  const h = v.x('handshake')?.request.http?.headers ?? {};
  return Object.keys(h).some((k) => k.toLowerCase() === 'authorization');
}

const rejectedStatus = (st: number | undefined) => st === 401 || st === 403;

/**
 * The auth context every auth check starts from (null = evaluate): without --auth, a server
 * that served the credential-less request does not use auth (not_applicable), and one that
 * answered 401/403 cannot be judged (the credentialed twin is missing); with --auth, the
 * credentialed twin must have been served.
 */
export function authContext(v: View): Verdict | null {
  const none = v.x('auth-none');
  if (!none) return { status: 'not_evaluable', reason: 'no_population', detail: 'the credential-less probe was not sent' };
  if (none.error?.kind === 'unreachable') return { status: 'not_evaluable', reason: 'unreachable', detail: none.error.detail };
  if (!authConfigured(v)) {
    if (rejectedStatus(none.response?.status)) return { status: 'not_evaluable', reason: 'auth_gate', detail: `HTTP ${none.response?.status} without credentials: pass --auth so a credentialed twin shows the rejection is about the credential` };
    return { status: 'not_applicable', reason: 'no_population', detail: 'the server serves requests without credentials and no --auth was given: authorization is OPTIONAL in MCP (a local server need not use it)' };
  }
  if (!v.twinServed('twin')) return { status: 'not_evaluable', reason: 'twin_failed', detail: `the same request with your --auth credential was not served (HTTP ${v.status('twin') ?? '-'}), so a rejection proves nothing` };
  // a credential the server ignores: served without one AND with an invalid one, and no protected-resource
  // metadata: the server does not use authorization (OPTIONAL in MCP), so the --auth given is not needed
  if (v.result('auth-none') && !rejectedStatus(v.status('auth-garbage')) && !foundPrm(v)) {
    return { status: 'not_applicable', reason: 'no_population', detail: `the server does not use authorization: it served the request without credentials (HTTP ${none.response?.status}) and with an invalid token (HTTP ${v.status('auth-garbage') ?? '-'}) and publishes no protected-resource metadata, so the --auth given is not one it needs` };
  }
  return null;
}

/** Verdict for a probe that must be refused for lack of a valid credential (401, or 403 with a Bearer challenge). */
export function refusedForCredential(v: View, probe: string, what: string): Verdict {
  const e = v.x(probe);
  if (!e) return { status: 'not_evaluable', reason: 'no_population', detail: `${what}: probe not sent` };
  if (e.error && !e.response) return { status: 'not_evaluable', reason: e.error.kind === 'unreachable' ? 'unreachable' : 'timeout', detail: `${what}: ${e.error.detail}` };
  const st = e.response!.status;
  if (st === 401) return { status: 'pass', detail: `${what}: HTTP 401` };
  if (st === 403) return { status: 'pass', detail: `${what}: HTTP 403` };
  if (st === 429) return { status: 'not_evaluable', reason: 'rate_limited', detail: `${what}: HTTP 429` };
  if (v.result(probe)) return { status: 'fail', detail: `${what}: served (HTTP ${st})` };
  return { status: 'fail', detail: `${what}: HTTP ${st}, expected 401 (or 403)` };
}

/** auth-params of a `WWW-Authenticate: Bearer k="v", …` challenge (lower-cased keys), or null when not Bearer. */
export function bearerChallenge(h: string | undefined): Record<string, string> | null {
  if (!h || !/^\s*bearer\b/i.test(h)) return null;
  const out: Record<string, string> = {};
  for (const m of h.replace(/^\s*bearer\s*/i, '').matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|([^\s,]+))/g)) out[m[1].toLowerCase()] = m[2] ?? m[3];
  return out;
}

/** The PRM document a probe fetched (JSON object), or null. */
export function prmOf(ex: Exchange | undefined): Obj | null {
  if (ex?.response?.status !== 200) return null;
  try {
    const d = JSON.parse(ex.response.body) as unknown;
    return isObj(d) ? d : null;
  } catch {
    return null;
  }
}

/** The metadata document the run found (challenge URL / path-inserted first, then the root one), with its exchange. */
export function foundPrm(v: View): { ex: Exchange; doc: Obj } | null {
  for (const p of PRM_PROBES) {
    const ex = v.x(p);
    const doc = prmOf(ex);
    if (ex && doc) return { ex, doc };
  }
  return null;
}

/** The target is a loopback URL (a local development server). */
export function loopbackTarget(v: View): boolean {
  try {
    return isLoopbackHost(new URL(v.ev.target).hostname);
  } catch {
    return false;
  }
}
