/**
 * The security probes' kit: the payloads and their evidence patterns (a check fails only on
 * evidence, never on an echo of the payload), the safe choice of a tool to send them to
 * (read-only tools only), and the readers of a Bearer challenge and a protected-resource metadata
 * document (later probes are built from them; the checks read them too). The auth gate the checks
 * start with is judge/security.ts.
 */
import type { Obj } from '../request-builder.ts';
import type { Exchange } from '../../types.ts';

/** a credential no server issued (the garbage-token probe) */
export const GARBAGE_TOKEN = 'mcpgauge-invalid-token-5e1c9a';
export const BURST_SIZE = 50;
/** RFC 9728 well-known path (path-inserted form: + the endpoint path) */
export const PRM_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** One payload per class, and what only a real flaw would answer (none of it matches the payload itself). */
export const INJECTIONS = {
  command: {
    probe: 'inject-command',
    payload: 'mcpgauge; id; cat /etc/passwd; echo $(id)',
    evidence: /\buid=\d+\([^)]*\)\s*gid=\d+|root:[x*]?:0:0:/,
  },
  sql: {
    probe: 'inject-sql',
    payload: "mcpgauge' OR '1'='1' -- ",
    evidence:
      /SQLITE_ERROR|sqlite3?\.\w*Error|SQL syntax.*MySQL|You have an error in your SQL syntax|syntax error at or near|unterminated quoted string|ORA-\d{5}|Unclosed quotation mark|SQLSTATE\[|PG::SyntaxError/i,
  },
  traversal: {
    probe: 'inject-traversal',
    payload: '../../../../../../../../../../etc/passwd',
    evidence: /root:[x*]?:0:0:|\[boot loader\]|; for 16-bit app support/i,
  },
  ssrf: {
    probe: 'inject-ssrf',
    payload: 'http://169.254.169.254/latest/meta-data/',
    evidence: /\bami-id\b|\binstance-id\b|security-credentials|computeMetadata|AccessKeyId/,
  },
} as const;
export type InjectionKind = keyof typeof INJECTIONS;

type Schema = {
  type?: unknown;
  enum?: unknown;
  const?: unknown;
  pattern?: unknown;
  format?: unknown;
  minimum?: unknown;
  default?: unknown;
};
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeOf = (s: Schema): string | undefined =>
  typeof s.type === 'string' ? s.type : Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') as string | undefined) : undefined;
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
      cands.push({
        tool: t.name,
        arg,
        base,
        rank: fit * 1e6 + (s.format !== undefined && want !== 'url' ? 1e5 : 0) + required.length * 1e3 + ti,
      });
    }
  });
  cands.sort((a, b) => a.rank - b.rank);
  const best = cands[0];
  return best ? { tool: best.tool, arg: best.arg, base: best.base } : null;
}

/** auth-params of a `WWW-Authenticate: Bearer k="v", …` challenge (lower-cased keys), or null when not Bearer. */
export function bearerChallenge(h: string | undefined): Record<string, string> | null {
  if (!h || !/^\s*bearer\b/i.test(h)) return null;
  const out: Record<string, string> = {};
  for (const m of h.replace(/^\s*bearer\s*/i, '').matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|([^\s,]+))/g))
    out[m[1].toLowerCase()] = m[2] ?? m[3];
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
