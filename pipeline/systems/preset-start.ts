/**
 * A preset (datasets/presets/<name>.json) started as a system in front of given upstreams: the
 * placeholders its command and config template use ({PORT}, {API_KEY}, {CONFIG_FILE},
 * {SERVERS_JSON}, {FIXTURE_CMD}, {CALL_TIMEOUT_MS}, {MCPGAUGE}, {WORK_DIR}, {NPM_BIN:pkg},
 * {LOOPBACK_GUARD}) filled from them. A single-upstream preset fronts one of them (`upstream=`,
 * default the fixture); its `upstreams` below is that one, so the full menu it is compared
 * against is the menu it can serve.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import {
  freePort,
  launchProxy,
  loadPreset,
  presetAdapter,
  presetSpec,
  runtimeValues,
  shellLine,
  ADAPTER_DEFAULTS,
  type Preset,
  type RunningProxy,
} from '../adapter/index.ts';
import type { UpstreamConfig } from '../proxy/config.ts';
import type { LiveOptions } from '../live/types.ts';
import { UserError } from '../types.ts';

export interface StartedPreset {
  preset: Preset;
  running: RunningProxy;
  apiKey?: string;
  /** the upstreams this instance fronts */
  upstreams: UpstreamConfig[];
  /** a proxy-config file listing them (the live stage's --upstreams) */
  upstreamsFile: string;
  /** live-stage options the preset's adapter block sets */
  adapter: Partial<LiveOptions>;
}

/** Start preset `name` in front of `all` (a single-upstream preset: the one named `upstream`, default fixture). */
export async function startPreset(
  name: string,
  all: UpstreamConfig[],
  workDir: string,
  o: { upstream?: string; callTimeoutMs?: number; readyTimeoutMs?: number; where?: string } = {},
): Promise<StartedPreset> {
  const where = o.where ?? `preset ${name}`;
  const preset = loadPreset(name, where);
  let upstreams = all;
  if (preset.fronts.upstreams === 1) {
    const want = o.upstream ?? 'fixture';
    const u = all.find((x) => x.name === want);
    if (!u)
      throw new UserError(
        `${where}: fronts one upstream; ${JSON.stringify(want)} is not among ${all.map((x) => x.name).join(', ')} (choose with upstream=NAME)`,
        2,
      );
    if (!('command' in u))
      throw new UserError(
        `${where}: upstream ${want} is not a stdio server (this preset fronts ${preset.fronts.transports.join(', ')})`,
        2,
      );
    upstreams = [u];
  } else if (o.upstream !== undefined) {
    throw new UserError(`${where}: upstream= is for single-upstream presets; ${preset.name} fronts every upstream`, 2);
  }
  const dir = join(workDir, `preset-${preset.name}-${randomBytes(3).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const upstreamsFile = join(dir, 'upstreams.proxy.json');
  writeFileSync(
    upstreamsFile,
    `${JSON.stringify({ description: `upstreams of preset ${preset.name}`, servers: upstreams, health_interval_ms: 0 }, null, 2)}\n`,
    { mode: 0o600 },
  );
  const apiKey = randomBytes(16).toString('hex');
  const first = upstreams[0] as { command: string; args?: string[]; env?: Record<string, string> };
  const envWords = Object.entries(first.env ?? {}).map(([k, v]) => `${k}=${v}`);
  const values = {
    ...runtimeValues(preset.command),
    CONFIG_FILE: upstreamsFile,
    SERVERS_JSON: JSON.stringify(upstreams),
    FIXTURE_CMD: [...(envWords.length ? ['env', ...envWords] : []), first.command, ...(first.args ?? [])],
    CALL_TIMEOUT_MS: String(o.callTimeoutMs ?? 30_000),
    PORT: String(await freePort()),
    API_KEY: apiKey,
    WORK_DIR: dir,
  };
  const running = await launchProxy(presetSpec(preset), { workDir: dir, values, secrets: [apiKey] });
  try {
    await untilListening(running, o.readyTimeoutMs ?? 20_000, where);
  } catch (e) {
    await running.stop();
    throw e;
  }
  const ad = presetAdapter(preset, ADAPTER_DEFAULTS);
  const adapter: Partial<LiveOptions> = {
    style: ad.style,
    styleSource: `preset ${preset.name}`,
    discoveryTool: ad.discoveryTool,
    argNames: { query: ad.argNames.query, limit: ad.argNames.limit, detail: ad.argNames.detail },
    callTool: ad.callTool,
    callArgsArg: ad.callArgsArg,
  };
  if (preset.limitDefault !== null) adapter.limit = preset.limitDefault;
  return { preset, running, apiKey: preset.apiKeyHeader ? apiKey : undefined, upstreams, upstreamsFile, adapter };
}

/** An HTTP-served preset needs a moment to listen: wait until its port accepts a connection (or it exits). */
async function untilListening(r: RunningProxy, timeoutMs: number, where: string): Promise<void> {
  if (r.target.kind === 'stdio') return;
  const u = new URL(r.target.url);
  const end = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect({ host: u.hostname, port: Number(u.port) });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    const ex = r.exit();
    if (ex)
      throw new Error(
        `${where}: the proxy exited (code ${ex.code}, signal ${ex.signal}) before listening: ${r.output().trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`,
      );
    if (Date.now() > end) throw new Error(`${where}: not listening on ${u.host} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Live options that speak to a started preset (its URL or stdio command, its adapter block, its upstreams). */
export function presetLiveOptions(p: StartedPreset): Partial<LiveOptions> {
  const t = p.running.target;
  const o: Partial<LiveOptions> = { ...p.adapter, upstreamsFile: p.upstreamsFile };
  if (t.kind === 'stdio')
    o.proxyCmd = shellLine([...Object.entries(t.env ?? {}).map(([k, v]) => `${k}=${v}`), t.command, ...(t.args ?? [])]);
  else {
    o.proxyUrl = t.url;
    if (t.kind === 'sse') o.transport = 'sse';
    if (p.apiKey) o.apiKey = p.apiKey;
  }
  return o;
}
