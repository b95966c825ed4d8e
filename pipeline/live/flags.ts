/**
 * CLI-facing side of the live stage: the flags `mcpgauge bench --live` accepts, as commander
 * `Option`s (defaults, `choices`, `argParser` validating at parse time), and their translation
 * into LiveOptions. The CLI adds `liveOptions()` to `bench` and passes commander's parsed
 * options object (camelCase keys) to liveOptionsFromFlags, which validates again for
 * programmatic callers; bad values are one-line UserErrors.
 */
import { parseTransport, type TransportChoice } from '../adapter/transport.ts';
import { Option } from 'commander';
import { STYLE_CHOICES, validateToolMap } from '../adapter/options.ts';
import { readJsonFile } from '../util/fs.ts';
import { UserError } from '../types.ts';
import { PROTOCOL_CHOICES, type ProtocolChoice } from '../mcp/protocol.ts';
import type { Detail } from '../report/index.ts';
import { EMBEDDED_SERVERS, type LiveOptions } from './types.ts';

/** the live stage's --proxy-url transports (the adapter's choices without stdio) */
const LIVE_TRANSPORTS: readonly TransportChoice[] = ['auto', 'streamable-http', 'sse'];

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

/** the API key from the environment variable --api-key-env names (not with --api-key; set and non-empty) */
function apiKeyFromEnv(keyEnv: string, o: LiveOptions): string {
  if (o.apiKey !== undefined) throw new UserError('--api-key and --api-key-env cannot be combined');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv))
    throw new UserError(`--api-key-env needs an environment variable name, got ${JSON.stringify(keyEnv)}`);
  const v = process.env[keyEnv];
  if (v === undefined || v === '')
    throw new UserError(`--api-key-env ${keyEnv}: the environment variable is ${v === undefined ? 'not set' : 'empty'}`);
  return v;
}

/** --query-arg, --limit-arg and --detail-arg as LiveOptions.argNames ('none' = null), undefined when none is given */
function argNamesFromFlags(flags: Record<string, FlagValue>): LiveOptions['argNames'] | undefined {
  const arg = (v: FlagValue, flag: string): string | null | undefined => {
    const s = strFlag(v, flag);
    return s === undefined ? undefined : s === 'none' ? null : s;
  };
  const q = strFlag(flags.queryArg, '--query-arg');
  const l = arg(flags.limitArg, '--limit-arg');
  const d = arg(flags.detailArg, '--detail-arg');
  if (q !== undefined || l !== undefined || d !== undefined) {
    const argNames: NonNullable<LiveOptions['argNames']> = {};
    if (q !== undefined) argNames.query = q;
    if (l !== undefined) argNames.limit = l;
    if (d !== undefined) argNames.detail = d;
    return argNames;
  }
  return undefined;
}

/** --live-details: at least one of full, compact (deduplicated) */
function detailsFromFlag(v: FlagValue): Detail[] | undefined {
  const details = listFlag(v);
  if (details !== undefined) {
    if (details.length === 0) throw new UserError('--live-details needs at least one of full, compact');
    for (const x of details)
      if (x !== 'full' && x !== 'compact')
        throw new UserError(`--live-details: unknown detail ${JSON.stringify(x)} (valid: full, compact)`);
    return [...new Set(details)] as Detail[];
  }
  return undefined;
}

/** --embedded-servers: known embedded servers only, at least one */
function serversFromFlag(v: FlagValue): string[] | undefined {
  const servers = listFlag(v);
  if (servers !== undefined) {
    for (const s of servers) {
      if (!(EMBEDDED_SERVERS as readonly string[]).includes(s))
        throw new UserError(`--embedded-servers: unknown server ${JSON.stringify(s)} (valid: ${EMBEDDED_SERVERS.join(', ')})`);
    }
    if (servers.length === 0) throw new UserError('--embedded-servers needs at least one server');
    return servers;
  }
  return undefined;
}

/** the flags that need or exclude one another: --proxy-url vs --proxy-cmd, the API key, --upstreams */
function checkCombinations(o: LiveOptions, keyEnv: string | undefined): void {
  if (o.proxyUrl !== undefined && o.proxyCmd !== undefined) throw new UserError('--proxy-url and --proxy-cmd cannot be combined');
  if (o.apiKey !== undefined && o.proxyUrl === undefined)
    throw new UserError(`${keyEnv !== undefined ? '--api-key-env' : '--api-key'} needs --proxy-url`);
  if (o.upstreamsFile !== undefined && o.proxyUrl === undefined && o.proxyCmd === undefined) {
    throw new UserError('--upstreams needs --proxy-url or --proxy-cmd (the embedded default knows its upstreams)');
  }
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
  if (keyEnv !== undefined) o.apiKey = apiKeyFromEnv(keyEnv, o);
  set('proxyCmd', strFlag(flags.proxyCmd, '--proxy-cmd'));
  set('upstreamsFile', strFlag(flags.upstreams, '--upstreams'));
  set('discoveryTool', strFlag(flags.discoveryTool, '--discovery-tool'));
  set('argNames', argNamesFromFlags(flags));
  set('limit', intFlag(flags.limit, '--limit', 1));
  set('details', detailsFromFlag(flags.liveDetails));
  set('runs', intFlag(flags.runs, '--runs', 1));
  set('warmup', intFlag(flags.warmup, '--warmup', 0));
  set('maxQueries', intFlag(flags.liveQueries, '--live-queries', 1));
  set('callTimeoutMs', intFlag(flags.callTimeout, '--call-timeout', 1));
  set('readyTimeoutMs', intFlag(flags.readyTimeout, '--ready-timeout', 1));
  set('timeoutMs', intFlag(flags.connectTimeout, '--connect-timeout', 1));
  set('embeddedServers', serversFromFlag(flags.embeddedServers));
  set('lapJson', strFlag(flags.lapJson, '--lap-json'));
  if (flags.lap === false) o.lap = 'off';
  if (flags.resultCalls === false) o.resultCalls = false;
  set('callTool', strFlag(flags.callTool, '--call-tool'));
  set('callNameArg', strFlag(flags.callNameArg, '--call-name-arg'));
  set('callArgsArg', strFlag(flags.callArgsArg, '--call-args-arg'));
  set('resultTopK', intFlag(flags.resultTopK, '--result-top-k', 1));
  if (flags.protocol !== undefined) {
    const p = String(flags.protocol);
    if (!(PROTOCOLS as readonly string[]).includes(p))
      throw new UserError(`--protocol must be ${PROTOCOLS.join(', ')}, got ${JSON.stringify(p)}`);
    o.protocol = p as ProtocolChoice;
  }
  const golden = strFlag(flags.golden, '--golden');
  if (golden === 'none') o.noGolden = true;
  else set('goldenFile', golden);
  const style = strFlag(flags.style, '--style');
  if (style !== undefined) {
    if (!(STYLE_CHOICES as readonly string[]).includes(style))
      throw new UserError(`--style must be one of ${STYLE_CHOICES.join(', ')}, got ${JSON.stringify(style)}`);
    o.style = style as LiveOptions['style'];
  }
  const map = strFlag(flags.toolMap, '--tool-map');
  if (map !== undefined) o.toolMap = validateToolMap(readJsonFile(map), map);
  const transport = strFlag(flags.transport, '--transport');
  // the adapter's transport option (the gate's --proxy-transport); --proxy-url has no stdio
  if (transport !== undefined) o.transport = parseTransport(transport, '--transport', LIVE_TRANSPORTS) as LiveOptions['transport'];
  if (flags.maxErrorRate !== undefined) {
    const x = Number(flags.maxErrorRate);
    if (String(flags.maxErrorRate).trim() === '' || !Number.isFinite(x) || x < 0 || x > 1)
      throw new UserError(`--max-error-rate must be a number in 0..1, got ${JSON.stringify(flags.maxErrorRate)}`);
    o.maxErrorRate = x;
  }
  const iterations = intFlag(flags.bootstrap, '--bootstrap', 1);
  const seed = intFlag(flags.seed, '--seed', 0);
  if (iterations !== undefined || seed !== undefined) o.bootstrap = { iterations: iterations ?? 2000, seed: seed ?? 42 };
  set('corpusFile', strFlag(flags.corpus, '--corpus'));
  const tk = listFlag(flags.tokenizers);
  if (tk !== undefined && !(tk.length === 1 && tk[0] === 'all')) set('tokenizers', tk);
  checkCombinations(o, keyEnv);
  return o;
}

const PROTOCOLS = PROTOCOL_CHOICES;

/** an Option whose value is checked by `check` at parse time (the checker's UserError names the flag) */
function opt(
  flags: string,
  description: string,
  cfg: { default?: string; choices?: readonly string[]; check?: (v: string, flag: string) => unknown } = {},
): Option {
  const o = new Option(flags, description);
  const name = flags.split(/[ ,]/)[0];
  if (cfg.choices) o.choices(cfg.choices);
  if (cfg.check) {
    const check = cfg.check;
    o.argParser((v: string) => {
      check(v, name);
      return v;
    });
  }
  if (cfg.default !== undefined) o.default(cfg.default);
  return o;
}
const int = (min: number) => (v: string, flag: string) => intFlag(v, flag, min);
const nonEmpty = (v: string, flag: string) => strFlag(v, flag);
const details = (v: string) => {
  const parts = listFlag(v) ?? [];
  if (parts.length === 0) throw new UserError('--live-details needs at least one of full, compact');
  for (const x of parts)
    if (x !== 'full' && x !== 'compact') throw new UserError(`--live-details: unknown detail ${JSON.stringify(x)} (valid: full, compact)`);
};
const servers = (v: string) => {
  const parts = listFlag(v) ?? [];
  if (parts.length === 0) throw new UserError('--embedded-servers needs at least one server');
  for (const x of parts)
    if (!(EMBEDDED_SERVERS as readonly string[]).includes(x))
      throw new UserError(`--embedded-servers: unknown server ${JSON.stringify(x)} (valid: ${EMBEDDED_SERVERS.join(', ')})`);
};

const errorRate = (v: string) => {
  const x = Number(v);
  if (v.trim() === '' || !Number.isFinite(x) || x < 0 || x > 1)
    throw new UserError(`--max-error-rate must be a number in 0..1, got ${JSON.stringify(v)}`);
};

/** The live flags of `mcpgauge bench`, fresh Option objects for each command. */
export function liveOptions(): Option[] {
  return [
    opt(
      '--proxy-url <url>',
      'measure the discovery proxy at this MCP URL (streamable HTTP; a bare origin gets /mcp) instead of the embedded default',
      { check: nonEmpty },
    ),
    opt('--api-key <key>', 'API key for --proxy-url (sent as X-API-Key and Authorization: Bearer)', { check: nonEmpty }),
    opt(
      '--api-key-env <name>',
      'read the API key for --proxy-url from this environment variable (keeps it out of ps output and shell history)',
      { check: nonEmpty },
    ),
    opt('--proxy-cmd <command>', 'measure the discovery proxy started by this command line, spoken to over stdio (simple shell quoting)', {
      check: nonEmpty,
    }),
    opt(
      '--upstreams <file>',
      "proxy-config-format file listing the external proxy's upstreams; their tools/list is the full menu (default: the corpus file, labelled)",
      { check: nonEmpty },
    ),
    opt('--discovery-tool <name>', 'name of the discovery tool', { default: 'retrieve_tools', check: nonEmpty }),
    opt('--query-arg <name>', "the discovery tool's query argument", { default: 'query', check: nonEmpty }),
    opt('--limit-arg <name>', "the discovery tool's result-limit argument ('none' = do not send one)", {
      default: 'limit',
      check: nonEmpty,
    }),
    opt('--detail-arg <name>', "the discovery tool's detail argument ('none' = the proxy has none; only full is measured)", {
      default: 'detail',
      check: nonEmpty,
    }),
    opt('--limit <n>', 'results requested per discovery call', { default: '10', check: int(1) }),
    opt('--live-details <list>', 'detail levels to measure (full,compact; compact only when the tool declares the detail argument)', {
      default: 'full,compact',
      check: details,
    }),
    opt('--runs <n>', 'measured passes over the golden queries (latency repetitions)', { default: '3', check: int(1) }),
    opt('--warmup <n>', 'warm-up discovery calls per detail level before measuring', { default: '2', check: int(0) }),
    opt('--live-queries <n>', 'use only the first N golden queries in the live stage', { check: int(1) }),
    opt('--call-timeout <ms>', 'deadline per discovery call', { default: '30000', check: int(1) }),
    opt('--connect-timeout <ms>', 'deadline to connect to the proxy and list tools (also each upstream listed directly)', {
      default: '60000',
      check: int(1),
    }),
    opt('--ready-timeout <ms>', 'how long to wait for the proxy to serve every upstream tool (embedded) or return results (external)', {
      check: int(1),
    }),
    opt('--embedded-servers <list>', `upstreams of the embedded default (${EMBEDDED_SERVERS.join(',')})`, { check: servers }),
    opt(
      '--lap-json <file>',
      'merge an external `lap lint --json` result (grade, menu tokens); warns when its menu count differs from ours by more than 15%',
      { check: nonEmpty },
    ),
    opt(
      '--no-lap',
      'do not run or merge LAP (also MCPGAUGE_LAP=off; MCPGAUGE_LAP=offline: run LAP only when its venv is already built, never install)',
    ),
    opt(
      '--style <style>',
      'proxy style: auto (discovery when tools/list has the discovery tool) | discovery | passthrough (menus and a cheap call only)',
      { default: 'auto', choices: STYLE_CHOICES },
    ),
    opt('--tool-map <file>', 'pass-through: JSON {"server:tool": "proxy tool name"} for renames beyond a prefix (else matched by suffix)', {
      check: nonEmpty,
    }),
    opt(
      '--transport <t>',
      'for --proxy-url: auto (streamable HTTP, SSE on 404/405) | streamable-http | sse (the gate calls it --proxy-transport)',
      { default: 'auto', choices: LIVE_TRANSPORTS },
    ),
    opt('--max-error-rate <x>', 'largest share of failed measured calls (0..1) before the run is marked failed and bench exits 2', {
      default: '0',
      check: errorRate,
    }),
    opt('--no-result-calls', "do not call the golden calls' tools (live result cost)"),
    opt('--call-tool <name>', "the proxy's tool that runs an upstream tool (result cost)", { default: 'call_tool', check: nonEmpty }),
    opt('--call-name-arg <name>', "the call tool's argument naming the upstream tool", { default: 'name', check: nonEmpty }),
    opt('--call-args-arg <name>', "the call tool's argument carrying the upstream tool's arguments (mcpproxy: args)", {
      default: 'arguments',
      check: nonEmpty,
    }),
    opt('--result-top-k <n>', "a golden call runs when its tool is within the proxy's first N results (1 = top-1 only)", {
      default: '1',
      check: int(1),
    }),
    opt('--protocol <era>', 'MCP protocol towards the proxy', { default: 'legacy', choices: PROTOCOLS }),
  ];
}
