/**
 * Reference discovery proxy: configuration file (JSON), validated against
 * datasets/schemas/proxy.config.schema.json, then the checks a schema cannot express (`${VAR}`
 * substitution, unique names, URLs after substitution, cross-field limits, the retriever
 * registry). Every problem is a one-line UserError naming the file, the entry (index and name)
 * and the field: of the schema's errors, the first field's (in reading order) is mapped to it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../types.ts';
import { readJsonFile } from '../util/fs.ts';
import type { McpTarget, ProtocolChoice } from '../mcp/client.ts';
import { retrieverIds } from '../retrieval/index.ts';
import { REPO_ROOT } from '../constants.ts';
import { compileSchemaFile, describeAjvError } from '../util/schema.ts';
import type { ErrorObject, ValidateFunction } from 'ajv';

export interface StdioServerConfig {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  protocol?: ProtocolChoice;
}
export interface RemoteServerConfig {
  name: string;
  url: string;
  transport: 'streamable-http' | 'sse';
  headers: Record<string, string>;
  protocol?: ProtocolChoice;
}
export type UpstreamConfig = StdioServerConfig | RemoteServerConfig;

export interface RestartPolicy {
  /** first delay before reconnecting a dead upstream (ms) */
  initial_ms: number;
  /** cap of the exponential delay (ms) */
  max_ms: number;
  factor: number;
  /** a connection that stayed up this long resets the backoff (ms) */
  stable_ms: number;
  /** give up after this many consecutive failed attempts (0 = never give up) */
  max_attempts: number;
}

export interface ProxyConfig {
  servers: UpstreamConfig[];
  listen: { host: string; port: number };
  api_key?: string;
  /** per call_tool deadline (ms), including waiting for a reconnecting upstream */
  call_timeout_ms: number;
  /** connect + first tools/list deadline per upstream (ms) */
  connect_timeout_ms: number;
  /** default and maximum `limit` of retrieve_tools */
  tools_limit: number;
  max_tools_limit: number;
  /** periodic tools/list per upstream to notice hangs, dead HTTP upstreams and changed tool lists (0 = off) */
  health_interval_ms: number;
  health_timeout_ms: number;
  /** protocol the proxy speaks to upstreams unless an entry overrides it */
  upstream_protocol: ProtocolChoice;
  restart: RestartPolicy;
  /** sum of request body bytes buffered across all HTTP requests in flight; past it: 503 */
  max_buffered_bytes: number;
  /** largest tools/list of one upstream (all pages) and largest single message read from it */
  max_upstream_list_bytes: number;
  /** retriever behind retrieve_tools (registry id); `proxy --retriever` overrides it; absent = the registry default */
  retriever?: string;
  /** where the config came from (for messages) */
  source: string;
  /** the private temp folder `${SCRATCH_DIR}` resolved to (created only when referenced; removed when the proxy closes) */
  scratch_dir?: string;
}

export const CONFIG_DEFAULTS = {
  listen: { host: '127.0.0.1', port: 8092 },
  // below the 60 s default request timeout of SDK clients, so the proxy's own error arrives first
  call_timeout_ms: 50_000,
  connect_timeout_ms: 30_000,
  tools_limit: 15,
  max_tools_limit: 100,
  health_interval_ms: 30_000,
  health_timeout_ms: 10_000,
  upstream_protocol: 'legacy' as ProtocolChoice,
  restart: { initial_ms: 250, max_ms: 10_000, factor: 2, stable_ms: 10_000, max_attempts: 0 },
  max_buffered_bytes: 64 * 1024 * 1024,
  max_upstream_list_bytes: 16 * 1024 * 1024,
};

export const PROXY_CONFIG_SCHEMA = join(REPO_ROOT, 'datasets', 'schemas', 'proxy.config.schema.json');

type SchemaNode = { [k: string]: any };
let schemaDoc: SchemaNode | undefined;
let validator: ValidateFunction | undefined;
const schema = (): SchemaNode => (schemaDoc ??= JSON.parse(readFileSync(PROXY_CONFIG_SCHEMA, 'utf8')) as SchemaNode);
/** the field names a part of the config allows, in the schema's order (messages list them) */
const keysOf = (node: SchemaNode): string[] => Object.keys(node.properties ?? {});

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Replace `${NAME}` / `${NAME:-default}` with environment values; `$${` is a literal `${`.
 * A missing variable without default is an error naming the field.
 */
export function substituteEnv(text: string, env: NodeJS.ProcessEnv, where: () => string): string {
  return text.replace(/\$?\$\{([^}]*)\}/g, (m, inner: string) => {
    if (m.startsWith('$$')) return m.slice(1);
    const mm = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(inner);
    if (!mm) throw new UserError(`${where()}: bad variable reference ${JSON.stringify(m)} (use \${NAME} or \${NAME:-default})`);
    const v = env[mm[1]];
    if (v !== undefined && v !== '') return v;
    if (mm[2] !== undefined) return mm[2];
    throw new UserError(`${where()}: environment variable ${mm[1]} is not set`);
  });
}

/** `${SCRATCH_DIR}`: a fresh private temp folder per loaded config, made on first reference. */
function withScratchDir(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; made(): string | undefined } {
  let dir: string | undefined;
  const out: NodeJS.ProcessEnv = { ...env };
  Object.defineProperty(out, 'SCRATCH_DIR', {
    enumerable: true,
    get: () => (dir ??= mkdtempSync(join(tmpdir(), 'mcpgauge-proxy-scratch-'))),
  });
  return { env: out, made: () => dir };
}

/** Validate a parsed config object; `source` names the file in messages. */
export function validateProxyConfig(raw: unknown, source = 'proxy config', env: NodeJS.ProcessEnv = process.env): ProxyConfig {
  const scratch = withScratchDir(env);
  try {
    const config = validateWith(raw, source, scratch.env);
    const dir = scratch.made();
    return dir ? { ...config, scratch_dir: dir } : config;
  } catch (e) {
    const dir = scratch.made();
    if (dir) rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Remove the `${SCRATCH_DIR}` folder of a config that will not be started (startProxy's close() does it otherwise). */
export function discardScratch(config: ProxyConfig): void {
  if (config.scratch_dir) rmSync(config.scratch_dir, { recursive: true, force: true });
}

/** `servers[i] ("name")` or `servers[i]` */
function labelOf(entry: unknown, i: number): string {
  return isObj(entry) && typeof entry.name === 'string' ? `servers[${i}] (${JSON.stringify(entry.name)})` : `servers[${i}]`;
}

/** a JSON pointer's segments, unescaped (RFC 6901) */
const segmentsOf = (ptr: string): string[] =>
  ptr === ''
    ? []
    : ptr
        .slice(1)
        .split('/')
        .map((x) => x.replace(/~1/g, '/').replace(/~0/g, '~'));

function valueAt(raw: unknown, segs: readonly string[]): unknown {
  let v: unknown = raw;
  for (const k of segs) v = isObj(v) || Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** the order the fields are read in (messages of earlier fields win) */
const FIELD_ORDER = [
  'servers',
  'listen',
  'api_key',
  'restart',
  'max_tools_limit',
  'tools_limit',
  'call_timeout_ms',
  'connect_timeout_ms',
  'health_interval_ms',
  'health_timeout_ms',
  'upstream_protocol',
  'max_buffered_bytes',
  'max_upstream_list_bytes',
  'retriever',
];

const rangeMessage = (field: string, node: SchemaNode, v: unknown, max: number = node.maximum): string =>
  `field "${field}" must be ${node.type === 'integer' ? 'an integer' : 'a number'} in ${node.minimum}..${max}, got ${JSON.stringify(v)}`;

/**
 * One schema error as the one-line message the proxy has always given for that problem, with a
 * rank: the order in which the fields are read (top level, each server in turn, listen, ...), so
 * of several problems the first field's is reported.
 */
function schemaMessage(e: ErrorObject, raw: unknown): { rank: number[]; msg: string } {
  const S = schema();
  const segs = segmentsOf(e.instancePath);
  const got = (v: unknown) => JSON.stringify(v);
  const keyRank = (obj: unknown, k: string) => (isObj(obj) ? Object.keys(obj).indexOf(k) : 0);
  const extra = (e.params as { additionalProperty?: string }).additionalProperty ?? '';
  const v = valueAt(raw, segs);
  const [field, ...rest] = segs;
  const base = FIELD_ORDER.indexOf(field) + 3;
  if (segs.length === 0) {
    if (e.keyword === 'type') return { rank: [0], msg: 'top level must be a JSON object' };
    if (e.keyword === 'additionalProperties')
      return { rank: [1, keyRank(raw, extra)], msg: `unknown field ${got(extra)} (allowed: ${keysOf(S).join(', ')})` };
    if (e.keyword === 'required') return { rank: [2], msg: 'missing field "servers" (an array of upstream servers)' };
  } else if (field === 'servers') {
    if (rest.length === 0)
      return {
        rank: [base, -1],
        msg:
          e.keyword === 'minItems'
            ? 'field "servers" is empty: configure at least one upstream server'
            : 'field "servers" must be an array',
      };
    const i = Number(rest[0]);
    const entry = valueAt(raw, ['servers', rest[0]]) as Record<string, unknown>;
    const label = labelOf(entry, i);
    const bad = (rank: number[], f: string, msg: string) => ({ rank: [base, i, ...rank], msg: `${label}: field "${f}" ${msg}` });
    const [sub, key] = rest.slice(1);
    const nameMsg = () => bad([1], 'name', `must be 1-64 characters of [A-Za-z0-9_.-] (no ":"), got ${got(entry?.name)}`);
    if (sub === undefined) {
      if (e.keyword === 'type') return { rank: [base, i, 0], msg: `${label}: must be an object with "name" and "command" or "url"` };
      if (e.keyword === 'required' && !e.schemaPath.includes('/anyOf/')) return nameMsg();
      if (e.keyword === 'not') return bad([3], 'url', 'cannot be combined with "command" (an entry is either stdio or remote)');
      if (e.keyword === 'anyOf' || e.keyword === 'required')
        return bad([4], 'command', 'is missing (give "command" for a stdio server or "url" for a remote one)');
      if (e.keyword === 'if') return { rank: [Infinity], msg: '' };
      if (e.keyword === 'additionalProperties') {
        const kind = entry.command !== undefined ? 'stdio' : 'remote';
        return bad(
          [6, keyRank(entry, extra)],
          extra,
          `is not allowed in a ${kind} entry (allowed: ${keysOf(S.$defs[`${kind}_server`]).join(', ')})`,
        );
      }
    }
    if (sub === 'name') return nameMsg();
    if (sub === 'protocol')
      return { rank: [base, i, 5], msg: `field "${label}.protocol" must be one of ${S.$defs.protocol.enum.join('|')}, got ${got(v)}` };
    if (sub === 'command') return bad([7], 'command', 'must be a non-empty string');
    if (sub === 'url') return bad([7], 'url', 'must be a string');
    if (sub === 'args') return bad([8], 'args', 'must be an array of strings');
    if (sub === 'cwd') return bad([9], 'cwd', 'must be a non-empty string');
    if (sub === 'transport') return bad([9], 'transport', `must be "streamable-http" or "sse", got ${got(v)}`);
    if (sub === 'env' || sub === 'headers') {
      if (key === undefined) return bad([10, -1], sub, 'must be an object of strings');
      return bad([10, keyRank(entry[sub], key)], `${sub}.${key}`, `must be a string, got ${got(v)}`);
    }
  } else if (field === 'listen') {
    const node = S.properties.listen;
    if (rest.length === 0 && e.keyword === 'additionalProperties')
      return { rank: [base, 1, keyRank(v, extra)], msg: `listen: unknown field ${got(extra)} (allowed: ${keysOf(node).join(', ')})` };
    if (rest.length === 0) return { rank: [base, 0], msg: 'field "listen" must be an object {host, port}' };
    if (rest[0] === 'host') return { rank: [base, 2], msg: `field "listen.host" must be a non-empty string, got ${got(v)}` };
    if (rest[0] === 'port') return { rank: [base, 3], msg: rangeMessage('listen.port', node.properties.port, v) };
  } else if (field === 'api_key') {
    return { rank: [base], msg: 'field "api_key" must be a string' };
  } else if (field === 'restart') {
    const node = S.properties.restart;
    const keys = keysOf(node);
    if (rest.length === 0 && e.keyword === 'additionalProperties')
      return { rank: [base, 1, keyRank(v, extra)], msg: `restart: unknown field ${got(extra)} (allowed: ${keys.join(', ')})` };
    if (rest.length === 0) return { rank: [base, 0], msg: 'field "restart" must be an object' };
    if (keys.includes(rest[0]))
      return { rank: [base, 2 + keys.indexOf(rest[0])], msg: rangeMessage(`restart.${rest[0]}`, node.properties[rest[0]], v) };
  } else if (field === 'upstream_protocol') {
    return { rank: [base], msg: `field "upstream_protocol" must be one of ${S.$defs.protocol.enum.join('|')}, got ${got(v)}` };
  } else if (field === 'retriever') {
    return { rank: [base], msg: retrieverMessage(v) };
  } else if (field === 'tools_limit') {
    const max = valueAt(raw, ['max_tools_limit']);
    const node = S.properties.tools_limit;
    const okMax =
      typeof max === 'number' &&
      Number.isInteger(max) &&
      max >= S.properties.max_tools_limit.minimum &&
      max <= S.properties.max_tools_limit.maximum;
    return { rank: [base], msg: rangeMessage('tools_limit', node, v, okMax ? max : CONFIG_DEFAULTS.max_tools_limit) };
  } else if (rest.length === 0 && S.properties[field]?.minimum !== undefined) {
    return { rank: [base], msg: rangeMessage(field, S.properties[field], v) };
  }
  return { rank: [1000], msg: describeAjvError(e) };
}

function byRank(a: { rank: number[] }, b: { rank: number[] }): number {
  for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
    const d = (a.rank[i] ?? -Infinity) - (b.rank[i] ?? -Infinity);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return 0;
}

interface RawServer {
  name: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  transport?: 'streamable-http' | 'sse';
  headers?: Record<string, string>;
  protocol?: ProtocolChoice;
}
interface RawConfig {
  servers: RawServer[];
  listen?: { host?: string; port?: number };
  api_key?: string;
  restart?: Partial<RestartPolicy>;
  retriever?: string;
  [k: string]: unknown;
}

function validateWith(raw: unknown, source: string, env: NodeJS.ProcessEnv): ProxyConfig {
  const fail = (msg: string): never => {
    throw new UserError(`${source}: ${msg}`);
  };
  validator ??= compileSchemaFile(PROXY_CONFIG_SCHEMA);
  if (!validator(raw)) {
    const first = (validator.errors ?? []).map((e) => schemaMessage(e, raw)).sort(byRank)[0];
    fail(first?.msg ?? 'invalid');
  }
  // the shape is the schema's; what follows is what a schema cannot check
  const top = raw as RawConfig;
  const names = new Set<string>();
  const servers: UpstreamConfig[] = top.servers.map((entry, i) => {
    const label = labelOf(entry, i);
    const bad = (field: string, msg: string): never => fail(`${label}: field "${field}" ${msg}`);
    const sub = (s: string, field: string) => substituteEnv(s, env, () => `${source}: ${label}: field "${field}"`);
    const strMap = (v: Record<string, string> | undefined, field: string): Record<string, string> => {
      const out: Record<string, string> = {};
      for (const [k, val] of Object.entries(v ?? {})) out[k] = sub(val, `${field}.${k}`);
      return out;
    };
    if (names.has(entry.name)) bad('name', 'duplicates an earlier entry');
    names.add(entry.name);
    if (entry.command !== undefined) {
      const args = (entry.args ?? []).map((a, j) => sub(a, `args[${j}]`));
      const out: StdioServerConfig = { name: entry.name, command: sub(entry.command, 'command'), args, env: strMap(entry.env, 'env') };
      if (entry.cwd !== undefined) out.cwd = sub(entry.cwd, 'cwd');
      if (entry.protocol) out.protocol = entry.protocol;
      return out;
    }
    const url = sub(entry.url!, 'url');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return bad('url', `is not a valid URL: ${JSON.stringify(url)}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') bad('url', `must be http:// or https://, got ${JSON.stringify(url)}`);
    const out: RemoteServerConfig = {
      name: entry.name,
      url,
      transport: entry.transport ?? 'streamable-http',
      headers: strMap(entry.headers, 'headers'),
    };
    if (entry.protocol) out.protocol = entry.protocol;
    return out;
  });

  const d = CONFIG_DEFAULTS;
  const listen = { host: top.listen?.host ?? d.listen.host, port: top.listen?.port ?? d.listen.port };
  let api_key: string | undefined;
  if (top.api_key !== undefined) {
    api_key = substituteEnv(top.api_key, env, () => `${source}: field "api_key"`);
    if (api_key === '') fail('field "api_key" is empty');
  }
  const r = top.restart ?? {};
  const restart: RestartPolicy = {
    initial_ms: r.initial_ms ?? d.restart.initial_ms,
    max_ms: r.max_ms ?? d.restart.max_ms,
    factor: r.factor ?? d.restart.factor,
    stable_ms: r.stable_ms ?? d.restart.stable_ms,
    max_attempts: r.max_attempts ?? d.restart.max_attempts,
  };
  if (top.restart !== undefined && restart.max_ms < restart.initial_ms) fail('field "restart.max_ms" must be >= "restart.initial_ms"');
  const num = (k: keyof typeof d & keyof RawConfig): number => (top[k] as number | undefined) ?? (d[k] as number);
  const max_tools_limit = num('max_tools_limit');
  const tools_limit = num('tools_limit');
  if (tools_limit > max_tools_limit) fail(rangeMessage('tools_limit', schema().properties.tools_limit, tools_limit, max_tools_limit));
  if (top.retriever !== undefined && !retrieverIds().includes(top.retriever)) fail(retrieverMessage(top.retriever));
  return {
    servers,
    listen,
    api_key,
    call_timeout_ms: num('call_timeout_ms'),
    connect_timeout_ms: num('connect_timeout_ms'),
    tools_limit,
    max_tools_limit,
    health_interval_ms: num('health_interval_ms'),
    health_timeout_ms: num('health_timeout_ms'),
    upstream_protocol: (top.upstream_protocol as ProtocolChoice | undefined) ?? d.upstream_protocol,
    restart,
    max_buffered_bytes: num('max_buffered_bytes'),
    max_upstream_list_bytes: num('max_upstream_list_bytes'),
    ...(top.retriever !== undefined ? { retriever: top.retriever } : {}),
    source,
  };
}

function retrieverMessage(v: unknown): string {
  return `field "retriever" must be one of ${retrieverIds().join(', ')}, got ${JSON.stringify(v)}`;
}

/** Read and validate a proxy config file (UserError naming the file on any problem). */
export function loadProxyConfig(path: string, env: NodeJS.ProcessEnv = process.env): ProxyConfig {
  try {
    // ${CONFIG_DIR} = the folder of the config file, so example configs can name files next to them.
    return validateProxyConfig(readJsonFile(path), path, { CONFIG_DIR: dirname(resolve(path)), ...env });
  } catch (e) {
    // a config that cannot be read or is invalid: could not run as asked (exit 2, the README's contract)
    if (e instanceof UserError && e.exitCode !== 2) throw new UserError(e.message, 2);
    throw e;
  }
}

/** The MCP client target for one upstream entry. */
export function targetOf(s: UpstreamConfig): McpTarget {
  if ('command' in s) return { kind: 'stdio', command: s.command, args: s.args, env: s.env, cwd: s.cwd };
  return { kind: s.transport === 'sse' ? 'sse' : 'http', url: s.url, headers: s.headers };
}
