/**
 * `--system NAME=SPEC` (repeatable): the systems one run measures side by side.
 *
 * SPEC: `direct` (no proxy: the upstreams' full menus in context, every call direct, measured
 * over MCP), `reference` (the embedded reference proxy; `reference:retriever=ID`), `cmd:<command
 * template>` (a proxy started by a command; placeholders from pipeline/adapter, plus the ones
 * systems/open.ts supplies: {CONFIG_FILE}, {SERVERS_JSON}, {MCPGAUGE}, {PORT}, {API_KEY},
 * {WORK_DIR}; with {PORT} it is HTTP-served at http://127.0.0.1:{PORT}/mcp, else stdio) or
 * `url:<URL>` (a proxy already running; its upstreams are its own business) or
 * `preset:NAME[,upstream=SERVER]` (a preset of datasets/presets started in front of the embedded
 * upstreams; a single-upstream preset fronts SERVER, default `fixture`). NAME defaults to the
 * kind (the preset's name for a preset); names are unique.
 */
import { loadPreset } from '../adapter/preset.ts';
import { UserError } from '../types.ts';
import { EMBEDDED_SERVERS } from '../live/types.ts';

export type SystemKind = 'direct' | 'reference' | 'cmd' | 'url' | 'preset';

/** the keys `preset:NAME,key=val` takes */
export const PRESET_SYSTEM_KEYS = ['upstream'] as const;

export interface SystemSpec {
  name: string;
  kind: SystemKind;
  /** the SPEC text as given (display; a cmd template never holds the API key itself) */
  spec: string;
  /** reference: retriever id for the proxy config (absent = the proxy's default) */
  retriever?: string;
  /** cmd: the command template */
  template?: string;
  /** url: the proxy URL */
  url?: string;
  /** preset: the preset name (datasets/presets/<name>.json) */
  preset?: string;
  /** preset: the embedded upstream a single-upstream preset fronts (default fixture) */
  upstream?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
const SPEC_START = /^(direct|reference|cmd:|url:|preset:)/;

/** One `--system` value. */
export function parseSystemSpec(arg: string): SystemSpec {
  const raw = arg.trim();
  let name: string | undefined;
  let spec = raw;
  const eq = raw.indexOf('=');
  if (eq > 0 && !SPEC_START.test(raw) && NAME.test(raw.slice(0, eq))) {
    name = raw.slice(0, eq);
    spec = raw.slice(eq + 1).trim();
  }
  const where = `--system ${JSON.stringify(arg)}`;
  if (spec === 'direct') return { name: name ?? 'direct', kind: 'direct', spec };
  if (spec === 'reference' || spec.startsWith('reference:')) {
    const out: SystemSpec = { name: name ?? 'reference', kind: 'reference', spec };
    for (const opt of spec.slice('reference'.length + 1).split(',').filter(Boolean)) {
      const m = /^retriever=([A-Za-z0-9_.-]+)$/.exec(opt.trim());
      if (!m) throw new UserError(`${where}: unknown reference option ${JSON.stringify(opt)} (valid: retriever=ID)`);
      out.retriever = m[1];
    }
    return out;
  }
  if (spec.startsWith('cmd:')) {
    const template = spec.slice(4).trim();
    if (!template) throw new UserError(`${where}: cmd: needs a command template`);
    return { name: name ?? 'cmd', kind: 'cmd', spec, template };
  }
  if (spec.startsWith('url:')) {
    const url = spec.slice(4).trim();
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new UserError(`${where}: not a valid URL: ${JSON.stringify(url)}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UserError(`${where}: the URL must be http:// or https://`);
    return { name: name ?? 'url', kind: 'url', spec, url };
  }
  if (spec.startsWith('preset:')) {
    const [pname, ...opts] = spec.slice(7).split(',').map((x) => x.trim());
    if (!pname) throw new UserError(`${where}: preset: needs a preset name`, 2);
    loadPreset(pname, where); // unknown preset or bad preset file: one line, exit 2
    const out: SystemSpec = { name: name ?? pname.replace(/^.*[/\\]/, '').replace(/\.json$/, ''), kind: 'preset', spec, preset: pname };
    for (const opt of opts.filter(Boolean)) {
      const m = /^([a-z_-]+)=(.*)$/.exec(opt);
      if (!m || !(PRESET_SYSTEM_KEYS as readonly string[]).includes(m[1])) throw new UserError(`${where}: unknown preset option ${JSON.stringify(opt)} (valid: ${PRESET_SYSTEM_KEYS.map((k) => `${k}=...`).join(', ')})`, 2);
      if (!(EMBEDDED_SERVERS as readonly string[]).includes(m[2])) throw new UserError(`${where}: upstream=${m[2]}: not an embedded upstream (valid: ${EMBEDDED_SERVERS.join(', ')})`, 2);
      out.upstream = m[2];
    }
    return out;
  }
  throw new UserError(`${where}: unknown system spec ${JSON.stringify(spec)} (valid: direct, reference[:retriever=ID], cmd:<command template>, url:<URL>, preset:NAME[,upstream=SERVER], each optionally NAME=...)`);
}

/** Every `--system` value; names must be unique (give NAME= to tell two of a kind apart). */
export function parseSystems(args: readonly string[]): SystemSpec[] {
  const out = args.map(parseSystemSpec);
  const seen = new Set<string>();
  for (const s of out) {
    if (seen.has(s.name)) throw new UserError(`--system: two systems named ${JSON.stringify(s.name)}; name them, e.g. --system a=${s.spec} --system b=...`);
    seen.add(s.name);
  }
  if (out.length === 0) throw new UserError('--system: no system given');
  return out;
}
