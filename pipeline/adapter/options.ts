/**
 * How to speak to a proxy under test: its style, its discovery tool and argument names, its call
 * tool, and how upstream tools are named through it. Shared by the gate and the live stage
 * (one set of option names: --discovery-tool, --query-arg, --limit-arg, --detail-arg, --api-key).
 */
import { UserError } from '../types.ts';
import { readJsonFile } from '../util/fs.ts';

export type ProxyStyle = 'discovery' | 'passthrough';
export type StyleChoice = 'auto' | ProxyStyle;
export const STYLE_CHOICES: readonly StyleChoice[] = ['auto', 'discovery', 'passthrough'];

export interface DiscoveryArgNames {
  query: string;
  /** null: never send a limit */
  limit: string | null;
  /** null: the discovery tool has no detail argument */
  detail: string | null;
}

export interface AdapterOptions {
  style: StyleChoice;
  /** discovery style: the search tool (retrieve_tools) */
  discoveryTool: string;
  argNames: DiscoveryArgNames;
  /** discovery style: the tool that runs an upstream tool (call_tool) and its two argument names */
  callTool: string;
  callNameArg: string;
  callArgsArg: string;
  /**
   * upstream tool "server:tool" -> the name the proxy uses for it (pass-through renames, or the
   * discovery name to send to the call tool). Unmapped names are matched by suffix (names.ts).
   */
  toolMap: Record<string, string>;
}

export const ADAPTER_DEFAULTS: AdapterOptions = {
  style: 'auto',
  discoveryTool: 'retrieve_tools',
  argNames: { query: 'query', limit: 'limit', detail: 'detail' },
  callTool: 'call_tool',
  callNameArg: 'name',
  callArgsArg: 'arguments',
  toolMap: {},
};

export interface AdapterFlag {
  flags: string;
  description: string;
  default?: string;
}

/**
 * Flags of the adapter. The discovery-tool/arg flags have the live stage's names and defaults
 * (pipeline/live/flags.ts registers the same four); the rest are new here.
 */
export const ADAPTER_FLAGS: readonly AdapterFlag[] = [
  { flags: '--style <style>', description: 'proxy style: auto (detect from tools/list) | discovery | passthrough', default: 'auto' },
  { flags: '--discovery-tool <name>', description: 'name of the discovery (search) tool', default: ADAPTER_DEFAULTS.discoveryTool },
  { flags: '--query-arg <name>', description: "the discovery tool's query argument", default: 'query' },
  { flags: '--limit-arg <name>', description: "the discovery tool's result-limit argument ('none' = do not send one)", default: 'limit' },
  { flags: '--detail-arg <name>', description: "the discovery tool's detail argument ('none' = it has none)", default: 'detail' },
  { flags: '--call-tool <name>', description: 'discovery style: the tool that runs an upstream tool', default: ADAPTER_DEFAULTS.callTool },
  {
    flags: '--call-name-arg <name>',
    description: "the call tool's argument naming the upstream tool",
    default: ADAPTER_DEFAULTS.callNameArg,
  },
  {
    flags: '--call-args-arg <name>',
    description: "the call tool's argument carrying the upstream tool's arguments",
    default: ADAPTER_DEFAULTS.callArgsArg,
  },
  {
    flags: '--tool-map <file>',
    description: 'JSON object {"server:tool": "name the proxy uses"} for proxies that rename tools beyond a prefix',
  },
];

type FlagValue = string | number | boolean | string[] | undefined;

function name(v: FlagValue, flag: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw new UserError(`${flag} needs a non-empty value, got ${JSON.stringify(v)}`);
  return v.trim();
}

/** Validate a tool map object (from a file or a config); one-line UserError naming `source`. */
export function validateToolMap(raw: unknown, source: string): Record<string, string> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new UserError(`${source}: tool map must be a JSON object {"server:tool": "proxy tool name"}`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (!/^[^:]+:.+$/.test(k)) throw new UserError(`${source}: tool map key ${JSON.stringify(k)} must be "server:tool"`);
    if (typeof v !== 'string' || v === '')
      throw new UserError(`${source}: tool map value for ${JSON.stringify(k)} must be a non-empty string`);
    out[k] = v;
  }
  return out;
}

/** commander options (camelCase keys) -> AdapterOptions; bad values are one-line UserErrors. */
export function adapterOptionsFromFlags(flags: Record<string, FlagValue>): AdapterOptions {
  const o: AdapterOptions = { ...ADAPTER_DEFAULTS, argNames: { ...ADAPTER_DEFAULTS.argNames }, toolMap: {} };
  const style = name(flags.style, '--style');
  if (style !== undefined) {
    if (!(STYLE_CHOICES as readonly string[]).includes(style))
      throw new UserError(`--style must be one of ${STYLE_CHOICES.join(', ')}, got ${JSON.stringify(style)}`);
    o.style = style as StyleChoice;
  }
  o.discoveryTool = name(flags.discoveryTool, '--discovery-tool') ?? o.discoveryTool;
  o.argNames.query = name(flags.queryArg, '--query-arg') ?? o.argNames.query;
  const opt = (v: FlagValue, flag: string, dflt: string | null): string | null => {
    const s = name(v, flag);
    return s === undefined ? dflt : s === 'none' ? null : s;
  };
  o.argNames.limit = opt(flags.limitArg, '--limit-arg', o.argNames.limit);
  o.argNames.detail = opt(flags.detailArg, '--detail-arg', o.argNames.detail);
  o.callTool = name(flags.callTool, '--call-tool') ?? o.callTool;
  o.callNameArg = name(flags.callNameArg, '--call-name-arg') ?? o.callNameArg;
  o.callArgsArg = name(flags.callArgsArg, '--call-args-arg') ?? o.callArgsArg;
  const map = name(flags.toolMap, '--tool-map');
  if (map !== undefined) o.toolMap = validateToolMap(readJsonFile(map), map);
  return o;
}
