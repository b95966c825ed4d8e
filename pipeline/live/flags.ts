/**
 * CLI-facing side of the live stage: the flags `mcpgauge bench --live` accepts and their
 * translation into LiveOptions. The CLI registers LIVE_FLAGS and passes commander's parsed
 * options object (camelCase keys) to liveOptionsFromFlags; bad values are one-line UserErrors.
 */
import { STYLE_CHOICES, validateToolMap } from '../adapter/options.ts';
import { readJsonFile } from '../util/fs.ts';
import { UserError } from '../types.ts';
import type { ProtocolChoice } from '../mcp/client.ts';
import type { Detail } from '../report/types.ts';
import { EMBEDDED_SERVERS, type LiveOptions } from './types.ts';

export interface LiveFlag {
  /** commander flag spec */
  flags: string;
  description: string;
  /** commander default (as the user would type it), when any */
  default?: string;
}

export const LIVE_FLAGS: readonly LiveFlag[] = [
  { flags: '--proxy-url <url>', description: 'measure the discovery proxy at this MCP URL (streamable HTTP; a bare origin gets /mcp) instead of the embedded default' },
  { flags: '--api-key <key>', description: 'API key for --proxy-url (sent as X-API-Key and Authorization: Bearer)' },
  { flags: '--api-key-env <name>', description: 'read the API key for --proxy-url from this environment variable (keeps it out of ps output and shell history)' },
  { flags: '--proxy-cmd <command>', description: 'measure the discovery proxy started by this command line, spoken to over stdio (simple shell quoting)' },
  { flags: '--upstreams <file>', description: "proxy-config-format file listing the external proxy's upstreams; their tools/list is the full menu (default: the corpus file, labelled)" },
  { flags: '--discovery-tool <name>', description: 'name of the discovery tool', default: 'retrieve_tools' },
  { flags: '--query-arg <name>', description: "the discovery tool's query argument", default: 'query' },
  { flags: '--limit-arg <name>', description: "the discovery tool's result-limit argument ('none' = do not send one)", default: 'limit' },
  { flags: '--detail-arg <name>', description: "the discovery tool's detail argument ('none' = the proxy has none; only full is measured)", default: 'detail' },
  { flags: '--limit <n>', description: 'results requested per discovery call', default: '10' },
  { flags: '--live-details <list>', description: 'detail levels to measure (full,compact; compact only when the tool declares the detail argument)', default: 'full,compact' },
  { flags: '--runs <n>', description: 'measured passes over the golden queries (latency repetitions)', default: '3' },
  { flags: '--warmup <n>', description: 'warm-up discovery calls per detail level before measuring', default: '2' },
  { flags: '--live-queries <n>', description: 'use only the first N golden queries in the live stage' },
  { flags: '--call-timeout <ms>', description: 'deadline per discovery call', default: '30000' },
  { flags: '--connect-timeout <ms>', description: 'deadline to connect to the proxy and list tools (also each upstream listed directly)', default: '60000' },
  { flags: '--ready-timeout <ms>', description: 'how long to wait for the proxy to serve every upstream tool (embedded) or return results (external)' },
  { flags: '--embedded-servers <list>', description: `upstreams of the embedded default (${EMBEDDED_SERVERS.join(',')})` },
  { flags: '--lap-json <file>', description: 'merge an external `lap lint --json` result (grade, menu tokens); warns when its menu count differs from ours by more than 15%' },
  { flags: '--no-lap', description: 'do not run or merge LAP' },
  { flags: '--style <style>', description: 'proxy style: auto (discovery when tools/list has the discovery tool) | discovery | passthrough (menus and a cheap call only)', default: 'auto' },
  { flags: '--tool-map <file>', description: 'pass-through: JSON {"server:tool": "proxy tool name"} for renames beyond a prefix (else matched by suffix)' },
  { flags: '--transport <t>', description: 'for --proxy-url: auto (streamable HTTP, SSE on 404/405) | streamable-http | sse', default: 'auto' },
  { flags: '--max-error-rate <x>', description: 'largest share of failed measured calls (0..1) before the run is marked failed and bench exits 2', default: '0' },
  { flags: '--no-result-calls', description: "do not call the golden calls' tools (live result cost)" },
  { flags: '--call-tool <name>', description: "the proxy's tool that runs an upstream tool (result cost)", default: 'call_tool' },
  { flags: '--result-top-k <n>', description: "a golden call runs when its tool is within the proxy's first N results (1 = top-1 only)", default: '1' },
  { flags: '--protocol <era>', description: 'MCP protocol towards the proxy: legacy | auto | 2026-07-28', default: 'legacy' },
];

type FlagValue = string | number | boolean | string[] | undefined;

function intFlag(v: FlagValue, flag: string, min: number): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  if (!/^\d+$/.test(s) || Number(s) < min || !Number.isSafeInteger(Number(s))) {
    throw new UserError(`${flag} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  }
  return Number(s);
}

function strFlag(v: FlagValue, flag: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw new UserError(`${flag} needs a non-empty value, got ${JSON.stringify(v)}`);
  return v;
}

function listFlag(v: FlagValue): string[] | undefined {
  if (v === undefined) return undefined;
  const parts = (Array.isArray(v) ? v : String(v).split(',')).map((x) => x.trim()).filter(Boolean);
  return parts;
}

/**
 * commander options (camelCase) -> LiveOptions. Recognised keys: proxyUrl, apiKey, apiKeyEnv, proxyCmd,
 * upstreams, discoveryTool, queryArg, limitArg, detailArg, limit, liveDetails, runs, warmup,
 * liveQueries, callTimeout, connectTimeout, readyTimeout, embeddedServers, lapJson, lap (false = --no-lap),
 * resultCalls (false = --no-result-calls), callTool, resultTopK,
 * protocol, plus the bench-wide golden, corpus, tokenizers, bootstrap and seed.
 */
export function liveOptionsFromFlags(flags: Record<string, FlagValue>): LiveOptions {
  const o: LiveOptions = {};
  const set = <K extends keyof LiveOptions>(k: K, v: LiveOptions[K] | undefined) => {
    if (v !== undefined) o[k] = v;
  };
  set('proxyUrl', strFlag(flags.proxyUrl, '--proxy-url'));
  set('apiKey', strFlag(flags.apiKey, '--api-key'));
  const keyEnv = strFlag(flags.apiKeyEnv, '--api-key-env');
  if (keyEnv !== undefined) {
    if (o.apiKey !== undefined) throw new UserError('--api-key and --api-key-env cannot be combined');
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) throw new UserError(`--api-key-env needs an environment variable name, got ${JSON.stringify(keyEnv)}`);
    const v = process.env[keyEnv];
    if (v === undefined || v === '') throw new UserError(`--api-key-env ${keyEnv}: the environment variable is ${v === undefined ? 'not set' : 'empty'}`);
    o.apiKey = v;
  }
  set('proxyCmd', strFlag(flags.proxyCmd, '--proxy-cmd'));
  set('upstreamsFile', strFlag(flags.upstreams, '--upstreams'));
  set('discoveryTool', strFlag(flags.discoveryTool, '--discovery-tool'));
  const arg = (v: FlagValue, flag: string): string | null | undefined => {
    const s = strFlag(v, flag);
    return s === undefined ? undefined : s === 'none' ? null : s;
  };
  const q = strFlag(flags.queryArg, '--query-arg');
  const l = arg(flags.limitArg, '--limit-arg');
  const d = arg(flags.detailArg, '--detail-arg');
  if (q !== undefined || l !== undefined || d !== undefined) {
    o.argNames = {};
    if (q !== undefined) o.argNames.query = q;
    if (l !== undefined) o.argNames.limit = l;
    if (d !== undefined) o.argNames.detail = d;
  }
  set('limit', intFlag(flags.limit, '--limit', 1));
  const details = listFlag(flags.liveDetails);
  if (details !== undefined) {
    if (details.length === 0) throw new UserError('--live-details needs at least one of full, compact');
    for (const x of details) if (x !== 'full' && x !== 'compact') throw new UserError(`--live-details: unknown detail ${JSON.stringify(x)} (valid: full, compact)`);
    o.details = [...new Set(details)] as Detail[];
  }
  set('runs', intFlag(flags.runs, '--runs', 1));
  set('warmup', intFlag(flags.warmup, '--warmup', 0));
  set('maxQueries', intFlag(flags.liveQueries, '--live-queries', 1));
  set('callTimeoutMs', intFlag(flags.callTimeout, '--call-timeout', 1));
  set('readyTimeoutMs', intFlag(flags.readyTimeout, '--ready-timeout', 1));
  set('timeoutMs', intFlag(flags.connectTimeout, '--connect-timeout', 1));
  const servers = listFlag(flags.embeddedServers);
  if (servers !== undefined) {
    for (const s of servers) {
      if (!(EMBEDDED_SERVERS as readonly string[]).includes(s)) throw new UserError(`--embedded-servers: unknown server ${JSON.stringify(s)} (valid: ${EMBEDDED_SERVERS.join(', ')})`);
    }
    if (servers.length === 0) throw new UserError('--embedded-servers needs at least one server');
    o.embeddedServers = servers;
  }
  set('lapJson', strFlag(flags.lapJson, '--lap-json'));
  if (flags.lap === false) o.lap = 'off';
  if (flags.resultCalls === false) o.resultCalls = false;
  set('callTool', strFlag(flags.callTool, '--call-tool'));
  set('resultTopK', intFlag(flags.resultTopK, '--result-top-k', 1));
  if (flags.protocol !== undefined) {
    const p = String(flags.protocol);
    if (p !== 'legacy' && p !== 'auto' && p !== '2026-07-28') throw new UserError(`--protocol must be legacy, auto or 2026-07-28, got ${JSON.stringify(p)}`);
    o.protocol = p as ProtocolChoice;
  }
  const golden = strFlag(flags.golden, '--golden');
  if (golden === 'none') o.noGolden = true;
  else set('goldenFile', golden);
  const style = strFlag(flags.style, '--style');
  if (style !== undefined) {
    if (!(STYLE_CHOICES as readonly string[]).includes(style)) throw new UserError(`--style must be one of ${STYLE_CHOICES.join(', ')}, got ${JSON.stringify(style)}`);
    o.style = style as LiveOptions['style'];
  }
  const map = strFlag(flags.toolMap, '--tool-map');
  if (map !== undefined) o.toolMap = validateToolMap(readJsonFile(map), map);
  const transport = strFlag(flags.transport, '--transport');
  if (transport !== undefined) {
    if (!['auto', 'streamable-http', 'sse'].includes(transport)) throw new UserError(`--transport must be auto, streamable-http or sse, got ${JSON.stringify(transport)}`);
    o.transport = transport as LiveOptions['transport'];
  }
  if (flags.maxErrorRate !== undefined) {
    const x = Number(flags.maxErrorRate);
    if (String(flags.maxErrorRate).trim() === '' || !Number.isFinite(x) || x < 0 || x > 1) throw new UserError(`--max-error-rate must be a number in 0..1, got ${JSON.stringify(flags.maxErrorRate)}`);
    o.maxErrorRate = x;
  }
  const iterations = intFlag(flags.bootstrap, '--bootstrap', 1);
  const seed = intFlag(flags.seed, '--seed', 0);
  if (iterations !== undefined || seed !== undefined) o.bootstrap = { iterations: iterations ?? 2000, seed: seed ?? 42 };
  set('corpusFile', strFlag(flags.corpus, '--corpus'));
  const tk = listFlag(flags.tokenizers);
  if (tk !== undefined && !(tk.length === 1 && tk[0] === 'all')) set('tokenizers', tk);
  if (o.proxyUrl !== undefined && o.proxyCmd !== undefined) throw new UserError('--proxy-url and --proxy-cmd cannot be combined');
  if (o.apiKey !== undefined && o.proxyUrl === undefined) throw new UserError(`${keyEnv !== undefined ? '--api-key-env' : '--api-key'} needs --proxy-url`);
  if (o.upstreamsFile !== undefined && o.proxyUrl === undefined && o.proxyCmd === undefined) {
    throw new UserError('--upstreams needs --proxy-url or --proxy-cmd (the embedded default knows its upstreams)');
  }
  return o;
}
