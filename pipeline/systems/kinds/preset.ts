/**
 * `preset:NAME[,upstream=SERVER]`: a preset of datasets/presets started in front of the
 * upstreams (pipeline/systems/preset-start.ts); a single-upstream preset fronts SERVER (default
 * `fixture`). NAME defaults to the preset's name.
 */
import { loadPreset } from '../../adapter/preset-file.ts';
import { UserError } from '../../types.ts';
import { EMBEDDED_SERVERS } from '../../live/types.ts';
import type { SystemKindEntry } from '../types.ts';

// heavy modules load when a system is opened or measured, not when a --system SPEC is parsed (every CLI start)
const proxyOpen = () => import('../proxy-open.ts');
const measure = () => import('../measure.ts');
const presets = () => import('../preset-start.ts');

/** the keys `preset:NAME,key=val` takes */
export const PRESET_SYSTEM_KEYS = ['upstream'] as const;

export const presetKind: SystemKindEntry<'preset', { preset: string; upstream?: string }> = {
  kind: 'preset',
  syntax: 'preset:NAME[,upstream=SERVER]',
  description:
    'a preset of datasets/presets started in front of the embedded upstreams (a single-upstream preset fronts SERVER, default `fixture`)',
  example: 'preset:mcp-proxy',
  start: 'preset:',
  accepts: (spec) => spec.startsWith('preset:'),
  parse(spec, name, where) {
    const [pname, ...opts] = spec
      .slice(7)
      .split(',')
      .map((x) => x.trim());
    if (!pname) throw new UserError(`${where}: preset: needs a preset name`, 2);
    loadPreset(pname, where); // unknown preset or bad preset file: one line, exit 2
    const out: { name: string; kind: 'preset'; spec: string; preset: string; upstream?: string } = {
      name: name ?? pname.replace(/^.*[/\\]/, '').replace(/\.json$/, ''),
      kind: 'preset',
      spec,
      preset: pname,
    };
    for (const opt of opts.filter(Boolean)) {
      const m = /^([a-z_-]+)=(.*)$/.exec(opt);
      if (!m || !(PRESET_SYSTEM_KEYS as readonly string[]).includes(m[1]))
        throw new UserError(
          `${where}: unknown preset option ${JSON.stringify(opt)} (valid: ${PRESET_SYSTEM_KEYS.map((k) => `${k}=...`).join(', ')})`,
          2,
        );
      if (!(EMBEDDED_SERVERS as readonly string[]).includes(m[2]))
        throw new UserError(`${where}: upstream=${m[2]}: not an embedded upstream (valid: ${EMBEDDED_SERVERS.join(', ')})`, 2);
      out.upstream = m[2];
    }
    return out;
  },
  open: async (spec, ctx) => {
    const { openProxy } = await proxyOpen();
    const { ADAPTER_DEFAULTS, presetAdapter } = await import('../../adapter/index.ts');
    const { startPreset } = await presets();
    return openProxy(spec, ctx, async () => {
      const p = await startPreset(spec.preset, ctx.upstreams, ctx.workDir, {
        upstream: spec.upstream,
        callTimeoutMs: ctx.timeoutMs,
        where: `--system ${spec.name}`,
      });
      return { running: p.running, apiKey: p.apiKey, adapter: presetAdapter(p.preset, ctx.adapter ?? ADAPTER_DEFAULTS) };
    });
  },
  measure: async (spec, env) =>
    (await measure()).measureLive(spec, env, async (opts) => {
      const { startPreset, presetLiveOptions } = await presets();
      const p = await startPreset(spec.preset, env.upstreams, env.dir, {
        upstream: spec.upstream,
        callTimeoutMs: env.base.callTimeoutMs,
        where: `--system ${spec.name}`,
      });
      return {
        opts: { ...opts, ...presetLiveOptions(p), readyTimeoutMs: Math.max(opts.readyTimeoutMs ?? 10_000, 10_000) },
        running: p.running,
      };
    }),
};
