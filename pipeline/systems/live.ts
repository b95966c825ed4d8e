/**
 * Several systems measured side by side on the same upstreams, golden queries and tokenizers
 * (`mcpgauge bench --live --system NAME=SPEC ...`). Each proxy system runs the ordinary live
 * stage (runLive: one block of the same shape as the single `live` section); all of them run at
 * once and every discovery call passes one FIFO turnstile, so calls alternate between systems.
 * `direct` has no discovery call: its block is the upstreams' full menu and the time of a full
 * listing. A system that fails is recorded with its error; the others go on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { runLive, type LiveOptions } from '../live/live-stage.ts';
import { embeddedUpstreams, EMBEDDED_SERVERS } from '../live/proxy-under-test.ts';
import { loadProxyConfig, type UpstreamConfig } from '../proxy/config.ts';
import { freePort, launchProxy, shellLine, fillCommand, type RunningProxy } from '../adapter/index.ts';
import { getTokenizer, TOKENIZER_NAMES } from '../tokens/tokenizer.ts';
import { percentile } from '../util/stats.ts';
import type { DirectBlock, SystemBlock } from '../report/types.ts';
import { openSystem, MCPGAUGE_BIN, type OpenedSystem } from './open.ts';
import { listingTokens } from './menu.ts';
import type { SystemSpec } from './spec.ts';
import { Turnstile } from './turnstile.ts';
import { startPreset } from './preset.ts';

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const oneLine = (e: unknown) => ((e as Error)?.message ?? String(e)).split('\n')[0];

/** The direct block: connect to every upstream, count the full menu, time `runs` full listings (taking turns). */
async function measureDirect(spec: SystemSpec, upstreams: UpstreamConfig[], dir: string, o: LiveOptions, turns: Turnstile): Promise<SystemBlock> {
  const sys: OpenedSystem = await openSystem(spec, { upstreams, workDir: dir, expectedTools: 0, probeQuery: '', timeoutMs: o.timeoutMs ?? 60_000, readyTimeoutMs: 60_000, protocol: o.protocol });
  try {
    const timed: number[] = [];
    for (let r = 0; r < (o.runs ?? 3); r++) timed.push(await turns.run(() => sys.relist()));
    const tokenizers = (o.tokenizers ?? [...TOKENIZER_NAMES]).map(getTokenizer);
    const counts = listingTokens(sys.menu, tokenizers);
    const direct: DirectBlock = {
      menus: tokenizers.map((tk) => ({ tokenizer: tk.name, menu_tokens: { value: counts[tk.name], unit: 'tokens', provenance: 'measured', tokenizer: tk.name, n: sys.menu.length }, tool_count: sys.menu.length })),
      latency: { n: timed.length, p50_ms: round3(percentile(timed, 50)), p99_ms: round3(percentile(timed, 99)), max_ms: round3(Math.max(...timed)), of: 'a full tools/list of every upstream (all pages), client-measured' },
      upstreams: upstreams.map((u) => u.name),
    };
    return { name: spec.name, kind: 'direct', spec: spec.spec, description: sys.description, direct };
  } finally {
    await sys.close();
  }
}

/** A cmd: system: fill its template (adapter placeholders) and start it; stdio-served unless it uses {PORT}. */
async function startCommand(spec: SystemSpec, configFile: string, upstreams: UpstreamConfig[], dir: string): Promise<{ opts: Partial<LiveOptions>; running?: RunningProxy }> {
  const apiKey = randomBytes(16).toString('hex');
  const http = spec.template!.includes('{PORT}');
  const values = {
    CONFIG_FILE: configFile,
    SERVERS_JSON: JSON.stringify(upstreams),
    MCPGAUGE: [process.execPath, MCPGAUGE_BIN],
    PORT: http ? String(await freePort()) : '0',
    API_KEY: apiKey,
    WORK_DIR: dir,
  };
  if (!http) return { opts: { proxyCmd: shellLine(fillCommand(spec.template!, values, `--system ${spec.name}`)) } };
  const running = await launchProxy({ kind: 'command', command: spec.template!, url: 'http://127.0.0.1:{PORT}/mcp' }, { workDir: dir, values, secrets: [apiKey] });
  const t = running.target;
  return { opts: { proxyUrl: t.kind === 'http' ? t.url : undefined, apiKey }, running };
}

async function measureProxy(spec: SystemSpec, base: LiveOptions, configFile: string, upstreams: UpstreamConfig[], dir: string, turns: Turnstile): Promise<SystemBlock> {
  let running: RunningProxy | undefined;
  try {
    let opts: LiveOptions = { ...base, turns, proxyUrl: undefined, proxyCmd: undefined, apiKey: undefined, upstreamsFile: undefined };
    if (spec.kind === 'reference') {
      if (spec.retriever !== undefined) opts.retriever = spec.retriever;
    } else if (spec.kind === 'cmd') {
      const started = await startCommand(spec, configFile, upstreams, dir);
      running = started.running;
      opts = { ...opts, ...started.opts, upstreamsFile: configFile };
      // an HTTP-served proxy needs a moment to listen
      if (running) opts.readyTimeoutMs = Math.max(opts.readyTimeoutMs ?? 10_000, 10_000);
    } else if (spec.kind === 'preset') {
      const p = await startPreset(spec.preset!, upstreams, dir, { upstream: spec.upstream, callTimeoutMs: base.callTimeoutMs, where: `--system ${spec.name}` });
      running = p.running;
      opts = { ...opts, ...presetLiveOptions(p), readyTimeoutMs: Math.max(opts.readyTimeoutMs ?? 10_000, 10_000) };
    } else {
      opts = { ...opts, proxyUrl: spec.url, apiKey: base.apiKey, upstreamsFile: base.upstreamsFile ?? configFile };
    }
    const live = await runLive(opts);
    return { name: spec.name, kind: spec.kind, spec: spec.spec, description: live.target.description, live };
  } finally {
    await running?.stop();
  }
}

/** Live options that speak to a started preset (its URL or stdio command, its adapter block, its upstreams). */
function presetLiveOptions(p: Awaited<ReturnType<typeof startPreset>>): Partial<LiveOptions> {
  const t = p.running.target;
  const o: Partial<LiveOptions> = { ...p.adapter, upstreamsFile: p.upstreamsFile };
  if (t.kind === 'stdio') o.proxyCmd = shellLine([...Object.entries(t.env ?? {}).map(([k, v]) => `${k}=${v}`), t.command, ...(t.args ?? [])]);
  else {
    o.proxyUrl = t.url;
    if (t.kind === 'sse') o.transport = 'sse';
    if (p.apiKey) o.apiKey = p.apiKey;
  }
  return o;
}

/**
 * `bench --live --preset NAME`: the live stage against a preset started in front of the embedded
 * upstreams (a single-upstream preset: the fixture). Options the user gave on the command line
 * (`explicit`) win over the preset's adapter block.
 */
export async function runPresetLive(name: string, base: LiveOptions, explicit: Partial<LiveOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-preset-'));
  let running: RunningProxy | undefined;
  try {
    const upstreams = await embeddedUpstreams(dir, base.embeddedServers ?? EMBEDDED_SERVERS);
    const p = await startPreset(name, upstreams, dir, { callTimeoutMs: base.callTimeoutMs });
    running = p.running;
    base.log?.(`live stage: preset ${p.preset.name} (${p.preset.description}) fronting ${p.upstreams.map((u) => u.name).join(', ')}`);
    const pre = presetLiveOptions(p);
    return await runLive({ ...base, ...pre, ...explicit, argNames: { ...pre.argNames, ...explicit.argNames }, readyTimeoutMs: Math.max(base.readyTimeoutMs ?? 10_000, 10_000) });
  } finally {
    await running?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Measures every system; blocks come back in the order given. */
export async function runSystems(specs: readonly SystemSpec[], base: LiveOptions): Promise<SystemBlock[]> {
  const log = base.log ?? (() => {});
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-systems-'));
  try {
    // the upstreams every non-embedded system fronts: the embedded default's, as a proxy config
    const upstreams = await embeddedUpstreams(dir, base.embeddedServers ?? EMBEDDED_SERVERS);
    const configFile = join(dir, 'upstreams.proxy.json');
    writeFileSync(configFile, `${JSON.stringify({ description: 'generated by mcpgauge --system', servers: upstreams, health_interval_ms: 0 }, null, 2)}\n`, { mode: 0o600 });
    loadProxyConfig(configFile);
    const turns = new Turnstile();
    log(`systems: ${specs.map((s) => `${s.name}=${s.spec}`).join(', ')} (calls alternate between systems)`);
    const settled = await Promise.allSettled(
      specs.map((s) => (s.kind === 'direct' ? measureDirect(s, upstreams, dir, base, turns) : measureProxy(s, { ...base, log: (m) => log(`[${s.name}] ${m}`) }, configFile, upstreams, dir, turns))),
    );
    return settled.map((r, i) => {
      if (r.status === 'fulfilled') return r.value;
      const s = specs[i];
      log(`system ${s.name}: FAILED: ${oneLine(r.reason)}`);
      return { name: s.name, kind: s.kind, spec: s.spec, description: `${s.kind} system`, error: oneLine(r.reason) };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
