/**
 * Preset files: how to start and speak to a known proxy or gateway, as data in
 * datasets/presets/<name>.json (schema datasets/schemas/preset.schema.json; an unknown key or a
 * bad value is a one-line error, exit 2). Used by `gate --preset`, `bench --live --preset` and
 * `--system NAME=preset:NAME`. Also the runtime placeholders a preset command may use:
 * {NPM_BIN:pkg} (the bin of an installed npm package) and {LOOPBACK_GUARD} (a preload that binds
 * a server without a host flag to 127.0.0.1).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MCPGAUGE_BIN, REPO_ROOT } from '../constants.ts';
import type { ValidateFunction } from 'ajv';
import { compileSchemaFile, describeAjvError } from '../util/schema.ts';
import { UserError } from '../types.ts';
import { readJsonFile } from '../util/fs.ts';
import type { AdapterOptions, StyleChoice } from './options.ts';
import type { ProxySpec } from './launch.ts';
import type { PlaceholderValues } from './template.ts';
import { endpointTemplate, type ProxyTransport } from './transport.ts';
import { PRESETS_DIR, presetNames } from './preset-names.ts';

// REPO_ROOT, not import.meta.url: the same path from the sources and from the compiled dist/
const REPO = REPO_ROOT;
export const PRESET_SCHEMA = join(REPO, 'datasets', 'schemas', 'preset.schema.json');
// a plain .mjs preload, not compiled into dist/: always the source file
export const LOOPBACK_GUARD = join(REPO_ROOT, 'pipeline', 'adapter', 'loopback-guard.mjs');

export type FixtureTransportName = 'stdio' | 'http-stateful' | 'http-stateless' | 'sse' | 'docker';

export interface Preset {
  name: string;
  file: string;
  description: string;
  source?: string;
  package?: string;
  command: string;
  /** absolute path */
  configTemplate?: string;
  transport: ProxyTransport;
  endpoint?: string;
  fronts: { transports: FixtureTransportName[]; upstreams: 1 | 'many' };
  adapter: {
    style?: StyleChoice;
    discovery_tool?: string;
    query_arg?: string;
    limit_arg?: string | null;
    detail_arg?: string | null;
    call_tool?: string;
    call_name_arg?: string;
    call_args_arg?: string;
  };
  apiKeyHeader: string | null;
  limitDefault: number | null;
}

let validator: ValidateFunction | undefined;

/** Load and check one preset by name (or a path to a preset file). */
export function loadPreset(nameOrFile: string, where = '--preset'): Preset {
  const file = /[/\\]|\.json$/.test(nameOrFile) ? resolve(nameOrFile) : join(PRESETS_DIR, `${nameOrFile}.json`);
  if (!existsSync(file))
    throw new UserError(`${where}: unknown preset ${JSON.stringify(nameOrFile)} (presets: ${presetNames().join(', ')})`, 2);
  let raw: any;
  try {
    raw = readJsonFile(file) as any;
  } catch (e) {
    throw new UserError(`${where}: ${(e as Error).message}`, 2);
  }
  validator ??= compileSchemaFile(PRESET_SCHEMA);
  if (!validator(raw)) {
    const first = (validator.errors ?? [])[0];
    throw new UserError(`${file}: ${first ? describeAjvError(first) : 'invalid preset'}`, 2);
  }
  return fromRaw(nameOrFile, file, raw);
}

function fromRaw(nameOrFile: string, file: string, raw: any): Preset {
  return {
    name: nameOrFile.replace(/^.*[/\\]/, '').replace(/\.json$/, ''),
    file,
    description: raw.description,
    ...(raw.source !== undefined ? { source: raw.source } : {}),
    ...(raw.package !== undefined ? { package: raw.package } : {}),
    command: raw.command,
    ...(raw.config_template !== undefined ? { configTemplate: resolve(dirname(file), raw.config_template) } : {}),
    transport: raw.transport,
    ...(raw.endpoint !== undefined ? { endpoint: raw.endpoint } : {}),
    fronts: raw.fronts,
    adapter: raw.adapter,
    apiKeyHeader: raw.api_key_header ?? null,
    limitDefault: raw.limit_default ?? null,
  };
}

/** The proxy spec a preset starts. */
export function presetSpec(p: Preset): ProxySpec {
  return {
    kind: 'command',
    command: p.command,
    configTemplate: p.configTemplate,
    transport: p.transport,
    url: p.transport === 'stdio' ? undefined : endpointTemplate(p.transport, p.endpoint),
  };
}

/**
 * The preset's adapter options over `base`; `explicit` names the AdapterOptions keys the user set
 * on the command line (they win over the preset).
 */
export function presetAdapter(p: Preset, base: AdapterOptions, explicit: ReadonlySet<string> = new Set()): AdapterOptions {
  const o: AdapterOptions = { ...base, argNames: { ...base.argNames }, toolMap: { ...base.toolMap } };
  const a = p.adapter;
  const set = <K extends keyof AdapterOptions>(k: K, v: AdapterOptions[K] | undefined) => {
    if (v !== undefined && !explicit.has(k)) o[k] = v;
  };
  set('style', a.style);
  set('discoveryTool', a.discovery_tool);
  set('callTool', a.call_tool);
  set('callNameArg', a.call_name_arg);
  set('callArgsArg', a.call_args_arg);
  if (a.query_arg !== undefined && !explicit.has('queryArg')) o.argNames.query = a.query_arg;
  if (a.limit_arg !== undefined && !explicit.has('limitArg')) o.argNames.limit = a.limit_arg;
  if (a.detail_arg !== undefined && !explicit.has('detailArg')) o.argNames.detail = a.detail_arg;
  return o;
}

/** The bin file of an installed npm package (its package.json `bin`, first entry or the one named like the package). */
export function npmBin(pkg: string, where = '{NPM_BIN}'): string {
  const pj = join(REPO, 'node_modules', pkg, 'package.json');
  if (!existsSync(pj))
    throw new UserError(`${where}: npm package ${JSON.stringify(pkg)} is not installed (npm ci installs the devDependencies)`, 2);
  const meta = JSON.parse(readFileSync(pj, 'utf8')) as { bin?: string | Record<string, string> };
  const bin =
    typeof meta.bin === 'string' ? meta.bin : meta.bin ? (meta.bin[pkg.replace(/^@[^/]+\//, '')] ?? Object.values(meta.bin)[0]) : undefined;
  if (!bin) throw new UserError(`${where}: npm package ${JSON.stringify(pkg)} has no bin`, 2);
  return join(REPO, 'node_modules', pkg, bin);
}

/** Runtime placeholder values a template uses: {LOOPBACK_GUARD} and each {NPM_BIN:pkg}. */
export function runtimeValues(...templates: Array<string | undefined>): PlaceholderValues {
  const v: PlaceholderValues = { LOOPBACK_GUARD, MCPGAUGE: MCPGAUGE_BIN, NODE: process.execPath };
  for (const t of templates) for (const m of (t ?? '').matchAll(/\{NPM_BIN:([a-z0-9@/._-]+)\}/g)) v[`NPM_BIN:${m[1]}`] = npmBin(m[1]);
  return v;
}
