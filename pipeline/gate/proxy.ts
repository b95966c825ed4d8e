/**
 * The proxy under test of a gate run, from the flags: the config's proxy (default), `--preset
 * NAME` (datasets/presets), `--proxy-cmd TEMPLATE`, or `--proxy-url URL`; how it is spoken to
 * (`--proxy-transport`, `--proxy-endpoint`) and what it can front (the preset's `fronts`, or
 * `--fronts`): cells of a fixture transport it cannot front are not_applicable.
 */
import { resolve } from 'node:path';
import { UserError } from '../types.ts';
import {
  ADAPTER_DEFAULTS,
  endpointTemplate,
  loadPreset,
  presetAdapter,
  presetSpec,
  type AdapterOptions,
  type ProxySpec,
  type TransportChoice,
} from '../adapter/index.ts';
import type { GateConfig } from './config.ts';
import type { FixtureTransport } from './cells.ts';

const FIXTURE_TRANSPORTS: readonly FixtureTransport[] = ['stdio', 'http-stateful', 'http-stateless', 'sse', 'docker'];

export interface Fronts {
  transports: readonly FixtureTransport[];
  upstreams: 1 | 'many';
  /** where the declaration comes from (for reasons) */
  source: string;
}

export interface ProxyChoice {
  spec: ProxySpec;
  description: string;
  fronts: Fronts;
  adapter: AdapterOptions;
}

export interface ProxyFlags {
  preset?: string;
  proxyCmd?: string;
  proxyConfigTemplate?: string;
  proxyUrl?: string;
  apiKey?: string;
  proxyTransport?: TransportChoice;
  proxyEndpoint?: string;
  /** "stdio,sse:1" style: fixture transports it fronts, optionally ":1" for a single upstream */
  fronts?: string;
  adapter?: AdapterOptions;
  /** adapter keys the user set explicitly (they win over a preset) */
  adapterExplicit?: ReadonlySet<string>;
}

/** `--fronts stdio,http-stateless[:1]` */
export function parseFronts(v: string): Omit<Fronts, 'source'> {
  const [list, n] = v.split(':');
  const transports = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const t of transports)
    if (!(FIXTURE_TRANSPORTS as readonly string[]).includes(t))
      throw new UserError(`--fronts: unknown fixture transport ${JSON.stringify(t)} (valid: ${FIXTURE_TRANSPORTS.join(', ')})`, 2);
  if (transports.length === 0) throw new UserError('--fronts: no transport given', 2);
  if (n !== undefined && n !== '1' && n !== 'many')
    throw new UserError(`--fronts: the upstream count after ':' must be 1 or many, got ${JSON.stringify(n)}`, 2);
  return { transports: transports as FixtureTransport[], upstreams: n === '1' ? 1 : 'many' };
}

export function chooseProxy(o: ProxyFlags, cfg: GateConfig): ProxyChoice {
  const adapter = o.adapter ?? ADAPTER_DEFAULTS;
  const all: Fronts = { transports: FIXTURE_TRANSPORTS, upstreams: 'many', source: 'default' };
  let fronts = all;
  let choice: ProxyChoice;
  const transport = o.proxyTransport === 'auto' ? undefined : o.proxyTransport;
  if (o.preset !== undefined) {
    if (o.proxyCmd !== undefined || o.proxyUrl !== undefined)
      throw new UserError('--preset cannot be combined with --proxy-cmd or --proxy-url', 2);
    const p = loadPreset(o.preset);
    const spec = presetSpec(p);
    if (spec.kind === 'command') {
      if (o.proxyConfigTemplate !== undefined) spec.configTemplate = resolve(o.proxyConfigTemplate);
      if (transport !== undefined) spec.transport = transport;
      if (o.proxyEndpoint !== undefined || transport !== undefined)
        spec.url =
          spec.transport === 'stdio' ? undefined : endpointTemplate(spec.transport ?? 'streamable-http', o.proxyEndpoint ?? p.endpoint);
    }
    fronts = { transports: p.fronts.transports, upstreams: p.fronts.upstreams, source: `preset ${p.name}` };
    choice = { spec, description: `preset ${p.name}: ${p.command}`, fronts, adapter: presetAdapter(p, adapter, o.adapterExplicit) };
  } else if (o.proxyUrl !== undefined) {
    if (o.proxyCmd !== undefined) throw new UserError('--proxy-url and --proxy-cmd cannot be combined', 2);
    if (transport === 'stdio') throw new UserError('--proxy-transport stdio needs --proxy-cmd (a URL is HTTP)', 2);
    choice = {
      spec: { kind: 'url', url: o.proxyUrl, apiKey: o.apiKey, transport },
      description: `proxy at ${o.proxyUrl}`,
      fronts,
      adapter,
    };
  } else {
    if (o.apiKey !== undefined) throw new UserError('--api-key needs --proxy-url (a started proxy gets {API_KEY})', 2);
    if (o.proxyCmd !== undefined) {
      const tpl = o.proxyConfigTemplate !== undefined ? resolve(o.proxyConfigTemplate) : undefined;
      // HTTP-served when asked (--proxy-transport / --proxy-endpoint) or when the template uses {PORT}
      const http =
        transport !== undefined
          ? transport !== 'stdio'
          : o.proxyEndpoint !== undefined || /\{PORT\}/.test(o.proxyCmd) || (tpl !== undefined && cfg.proxy.url !== undefined);
      const t = http ? (transport ?? 'streamable-http') : 'stdio';
      const url = http ? endpointTemplate(t as 'streamable-http' | 'sse', o.proxyEndpoint) : undefined;
      choice = {
        spec: { kind: 'command', command: o.proxyCmd, configTemplate: tpl, url, transport: t },
        description: `--proxy-cmd ${o.proxyCmd}`,
        fronts,
        adapter,
      };
      // a bridge command with one fixture placeholder fronts one upstream: say so, unless --fronts does
      const inferred = o.fronts === undefined && tpl === undefined ? inferFronts(o.proxyCmd) : undefined;
      if (inferred) {
        choice.fronts = inferred;
        choice.description += ` (fronts ${inferred.transports.join(',')}:1, ${inferred.source})`;
      }
    } else {
      if (o.proxyConfigTemplate !== undefined) throw new UserError('--proxy-config-template needs --proxy-cmd', 2);
      if (transport !== undefined || o.proxyEndpoint !== undefined)
        throw new UserError('--proxy-transport/--proxy-endpoint need --proxy-cmd, --proxy-url or --preset', 2);
      choice = {
        spec: { kind: 'command', command: cfg.proxy.command, configTemplate: cfg.proxy.config_template, url: cfg.proxy.url },
        description: `reference proxy (${cfg.proxy.command})`,
        fronts,
        adapter,
      };
    }
  }
  if (o.fronts !== undefined) choice.fronts = { ...parseFronts(o.fronts), source: '--fronts' };
  return choice;
}

/** fixture placeholders that put one upstream on a proxy's command line, and the fixture transports each stands for */
const ONE_UPSTREAM: readonly { name: string; transports: readonly FixtureTransport[] }[] = [
  { name: 'FIXTURE_CMD', transports: ['stdio'] },
  { name: 'FIXTURE_COMMAND', transports: ['stdio'] },
  { name: 'FIXTURE_DOCKER_CMD', transports: ['docker'] },
  { name: 'FIXTURE_URL', transports: ['http-stateful', 'http-stateless', 'sse'] },
];
/** placeholders that hand a proxy every upstream at once (a servers list or a config file) */
const MANY_UPSTREAMS = ['SERVERS_JSON', 'CONFIG_FILE'];

/**
 * What a `--proxy-cmd` template fronts when its words say so: exactly one fixture placeholder
 * (`{FIXTURE_CMD}`, `{FIXTURE_URL}`, ...; `{FIXTURE_COMMAND}` with `{FIXTURE_ARGS_JSON}` counts as
 * one) and none that hands over every upstream: a one-upstream bridge (npm mcp-proxy,
 * supergateway), so the gate runs its single-upstream cells. Undefined when the template does not
 * say (role placeholders such as `{FIXTURE_URL:hang}` name several upstreams).
 */
export function inferFronts(template: string): Fronts | undefined {
  const uses = [...template.matchAll(/\{([A-Z][A-Z0-9_]*)(:[a-z0-9_-]+)?\}/g)].map((m) => ({ name: m[1], role: m[2] }));
  if (uses.some((u) => MANY_UPSTREAMS.includes(u.name) || (u.role && u.name.startsWith('FIXTURE_')))) return undefined;
  const ones = uses.filter((u) => ONE_UPSTREAM.some((x) => x.name === u.name));
  if (ones.length !== 1) return undefined;
  const hit = ONE_UPSTREAM.find((x) => x.name === ones[0].name)!;
  return {
    transports: hit.transports,
    upstreams: 1,
    source: `inferred: the --proxy-cmd template has one {${hit.name}} and no list of upstreams; --fronts overrides`,
  };
}

/** Why a cell of this fixture transport does not apply to the proxy, or null when it does. */
export function notApplicable(transport: FixtureTransport, fronts: Fronts): string | null {
  if (fronts.transports.includes(transport)) return null;
  return `not applicable: the proxy fronts ${fronts.transports.join(', ')} upstreams only (${fronts.source}), not ${transport}`;
}
