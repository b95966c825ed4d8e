/**
 * Reference discovery proxy: configuration file (JSON), strict validation, `${VAR}` substitution.
 * Every problem is a one-line UserError naming the file, the entry (index and name) and the field.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../types.ts';
import { readJsonFile } from '../util/fs.ts';
import type { McpTarget, ProtocolChoice } from '../mcp/client.ts';
import { retrieverIds } from '../retrieval/registry.ts';

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
};

const TOP_KEYS = new Set([
  '$schema',
  'description',
  'servers',
  'listen',
  'api_key',
  'call_timeout_ms',
  'connect_timeout_ms',
  'tools_limit',
  'max_tools_limit',
  'health_interval_ms',
  'health_timeout_ms',
  'upstream_protocol',
  'restart',
  'retriever',
]);
const STDIO_KEYS = new Set(['name', 'command', 'args', 'env', 'cwd', 'protocol', 'description']);
const REMOTE_KEYS = new Set(['name', 'url', 'transport', 'headers', 'protocol', 'description']);
const PROTOCOLS: ProtocolChoice[] = ['legacy', 'auto', '2026-07-28'];
const SERVER_NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

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
  Object.defineProperty(out, 'SCRATCH_DIR', { enumerable: true, get: () => (dir ??= mkdtempSync(join(tmpdir(), 'mcpgauge-proxy-scratch-'))) });
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

function validateWith(raw: unknown, source: string, env: NodeJS.ProcessEnv): ProxyConfig {
  const fail = (msg: string): never => {
    throw new UserError(`${source}: ${msg}`);
  };
  if (!isObj(raw)) fail('top level must be a JSON object');
  const top = raw as Record<string, unknown>;
  for (const k of Object.keys(top)) if (!TOP_KEYS.has(k)) fail(`unknown field ${JSON.stringify(k)} (allowed: ${[...TOP_KEYS].join(', ')})`);

  const int = (v: unknown, field: string, min: number, max: number, dflt: number): number => {
    if (v === undefined) return dflt;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      return fail(`field "${field}" must be an integer in ${min}..${max}, got ${JSON.stringify(v)}`);
    }
    return v;
  };
  const num = (v: unknown, field: string, min: number, max: number, dflt: number): number => {
    if (v === undefined) return dflt;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      return fail(`field "${field}" must be a number in ${min}..${max}, got ${JSON.stringify(v)}`);
    }
    return v;
  };
  const protocolOf = (v: unknown, field: string): ProtocolChoice | undefined => {
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !PROTOCOLS.includes(v as ProtocolChoice)) {
      return fail(`field "${field}" must be one of ${PROTOCOLS.join('|')}, got ${JSON.stringify(v)}`);
    }
    return v as ProtocolChoice;
  };

  if (top.servers === undefined) fail('missing field "servers" (an array of upstream servers)');
  if (!Array.isArray(top.servers)) fail('field "servers" must be an array');
  const list = top.servers as unknown[];
  if (list.length === 0) fail('field "servers" is empty: configure at least one upstream server');
  const names = new Set<string>();
  const servers: UpstreamConfig[] = list.map((entry, i) => {
    const label = isObj(entry) && typeof entry.name === 'string' ? `servers[${i}] (${JSON.stringify(entry.name)})` : `servers[${i}]`;
    const bad = (field: string, msg: string): never => fail(`${label}: field "${field}" ${msg}`);
    const sub = (s: string, field: string) => substituteEnv(s, env, () => `${source}: ${label}: field "${field}"`);
    if (!isObj(entry)) return fail(`${label}: must be an object with "name" and "command" or "url"`);
    if (typeof entry.name !== 'string' || !SERVER_NAME_RE.test(entry.name)) {
      return bad('name', `must be 1-64 characters of [A-Za-z0-9_.-] (no ":"), got ${JSON.stringify(entry.name)}`);
    }
    if (names.has(entry.name)) bad('name', 'duplicates an earlier entry');
    names.add(entry.name);
    const hasCmd = entry.command !== undefined;
    const hasUrl = entry.url !== undefined;
    if (hasCmd && hasUrl) return bad('url', 'cannot be combined with "command" (an entry is either stdio or remote)');
    if (!hasCmd && !hasUrl) return bad('command', 'is missing (give "command" for a stdio server or "url" for a remote one)');
    const strMap = (v: unknown, field: string): Record<string, string> => {
      if (v === undefined) return {};
      if (!isObj(v)) return bad(field, 'must be an object of strings');
      const out: Record<string, string> = {};
      for (const [k, val] of Object.entries(v)) {
        if (typeof val !== 'string') return bad(`${field}.${k}`, `must be a string, got ${JSON.stringify(val)}`);
        out[k] = sub(val, `${field}.${k}`);
      }
      return out;
    };
    const protocol = protocolOf(entry.protocol, `${label}.protocol`);
    if (hasCmd) {
      for (const k of Object.keys(entry)) if (!STDIO_KEYS.has(k)) bad(k, `is not allowed in a stdio entry (allowed: ${[...STDIO_KEYS].join(', ')})`);
      if (typeof entry.command !== 'string' || entry.command.trim() === '') return bad('command', 'must be a non-empty string');
      let args: string[] = [];
      if (entry.args !== undefined) {
        if (!Array.isArray(entry.args) || entry.args.some((a) => typeof a !== 'string')) return bad('args', 'must be an array of strings');
        args = (entry.args as string[]).map((a, j) => sub(a, `args[${j}]`));
      }
      if (entry.cwd !== undefined && (typeof entry.cwd !== 'string' || entry.cwd === '')) bad('cwd', 'must be a non-empty string');
      const out: StdioServerConfig = {
        name: entry.name,
        command: sub(entry.command, 'command'),
        args,
        env: strMap(entry.env, 'env'),
      };
      if (entry.cwd !== undefined) out.cwd = sub(entry.cwd as string, 'cwd');
      if (protocol) out.protocol = protocol;
      return out;
    }
    for (const k of Object.keys(entry)) if (!REMOTE_KEYS.has(k)) bad(k, `is not allowed in a remote entry (allowed: ${[...REMOTE_KEYS].join(', ')})`);
    if (typeof entry.url !== 'string') return bad('url', 'must be a string');
    const url = sub(entry.url, 'url');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return bad('url', `is not a valid URL: ${JSON.stringify(url)}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') bad('url', `must be http:// or https://, got ${JSON.stringify(url)}`);
    const transport = entry.transport ?? 'streamable-http';
    if (transport !== 'streamable-http' && transport !== 'sse') {
      return bad('transport', `must be "streamable-http" or "sse", got ${JSON.stringify(transport)}`);
    }
    const out: RemoteServerConfig = { name: entry.name, url, transport, headers: strMap(entry.headers, 'headers') };
    if (protocol) out.protocol = protocol;
    return out;
  });

  let listen = { ...CONFIG_DEFAULTS.listen };
  if (top.listen !== undefined) {
    if (!isObj(top.listen)) fail('field "listen" must be an object {host, port}');
    const l = top.listen as Record<string, unknown>;
    for (const k of Object.keys(l)) if (k !== 'host' && k !== 'port') fail(`listen: unknown field ${JSON.stringify(k)} (allowed: host, port)`);
    if (l.host !== undefined && (typeof l.host !== 'string' || l.host === '')) fail(`field "listen.host" must be a non-empty string, got ${JSON.stringify(l.host)}`);
    listen = { host: (l.host as string | undefined) ?? listen.host, port: int(l.port, 'listen.port', 0, 65535, listen.port) };
  }

  let api_key: string | undefined;
  if (top.api_key !== undefined) {
    if (typeof top.api_key !== 'string') fail('field "api_key" must be a string');
    api_key = substituteEnv(top.api_key as string, env, () => `${source}: field "api_key"`);
    if (api_key === '') fail('field "api_key" is empty');
  }

  const d = CONFIG_DEFAULTS;
  let restart = { ...d.restart };
  if (top.restart !== undefined) {
    if (!isObj(top.restart)) fail('field "restart" must be an object');
    const r = top.restart as Record<string, unknown>;
    for (const k of Object.keys(r)) if (!(k in d.restart)) fail(`restart: unknown field ${JSON.stringify(k)} (allowed: ${Object.keys(d.restart).join(', ')})`);
    restart = {
      initial_ms: int(r.initial_ms, 'restart.initial_ms', 1, 3_600_000, d.restart.initial_ms),
      max_ms: int(r.max_ms, 'restart.max_ms', 1, 3_600_000, d.restart.max_ms),
      factor: num(r.factor, 'restart.factor', 1, 100, d.restart.factor),
      stable_ms: int(r.stable_ms, 'restart.stable_ms', 0, 86_400_000, d.restart.stable_ms),
      max_attempts: int(r.max_attempts, 'restart.max_attempts', 0, 1_000_000, d.restart.max_attempts),
    };
    if (restart.max_ms < restart.initial_ms) fail('field "restart.max_ms" must be >= "restart.initial_ms"');
  }
  const max_tools_limit = int(top.max_tools_limit, 'max_tools_limit', 1, 1000, d.max_tools_limit);
  const tools_limit = int(top.tools_limit, 'tools_limit', 1, max_tools_limit, d.tools_limit);
  return {
    servers,
    listen,
    api_key,
    call_timeout_ms: int(top.call_timeout_ms, 'call_timeout_ms', 1, 86_400_000, d.call_timeout_ms),
    connect_timeout_ms: int(top.connect_timeout_ms, 'connect_timeout_ms', 1, 86_400_000, d.connect_timeout_ms),
    tools_limit,
    max_tools_limit,
    health_interval_ms: int(top.health_interval_ms, 'health_interval_ms', 0, 86_400_000, d.health_interval_ms),
    health_timeout_ms: int(top.health_timeout_ms, 'health_timeout_ms', 1, 86_400_000, d.health_timeout_ms),
    upstream_protocol: protocolOf(top.upstream_protocol, 'upstream_protocol') ?? d.upstream_protocol,
    restart,
    ...(top.retriever !== undefined ? { retriever: retrieverOf(top.retriever, fail) } : {}),
    source,
  };
}

function retrieverOf(v: unknown, fail: (msg: string) => never): string {
  if (typeof v !== 'string' || !retrieverIds().includes(v)) fail(`field "retriever" must be one of ${retrieverIds().join(', ')}, got ${JSON.stringify(v)}`);
  return v as string;
}

/** Read and validate a proxy config file (UserError naming the file on any problem). */
export function loadProxyConfig(path: string, env: NodeJS.ProcessEnv = process.env): ProxyConfig {
  // ${CONFIG_DIR} = the folder of the config file, so example configs can name files next to them.
  return validateProxyConfig(readJsonFile(path), path, { CONFIG_DIR: dirname(resolve(path)), ...env });
}

/** The MCP client target for one upstream entry. */
export function targetOf(s: UpstreamConfig): McpTarget {
  if ('command' in s) return { kind: 'stdio', command: s.command, args: s.args, env: s.env, cwd: s.cwd };
  return { kind: s.transport === 'sse' ? 'sse' : 'http', url: s.url, headers: s.headers };
}
