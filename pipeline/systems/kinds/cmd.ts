/**
 * `cmd:<command template>`: a proxy started by a command. Placeholders from pipeline/adapter plus
 * {CONFIG_FILE}, {SERVERS_JSON}, {MCPGAUGE} (bin/mcpgauge.mjs), {NODE}, {PORT}, {API_KEY}, {WORK_DIR}; with {PORT} it is
 * HTTP-served at http://127.0.0.1:{PORT}/mcp, else stdio.
 */
import { randomBytes } from 'node:crypto';
import { UserError } from '../../types.ts';
import type { SystemKindEntry } from '../types.ts';

// heavy modules load when a system is opened or measured, not when a --system SPEC is parsed (every CLI start)
const proxyOpen = () => import('../proxy-open.ts');
const measure = () => import('../measure.ts');
const adapter = () => import('../../adapter/index.ts');

export const cmdKind: SystemKindEntry<'cmd', { template: string }> = {
  kind: 'cmd',
  syntax: 'cmd:<command template>',
  description:
    'a proxy started by a command (placeholders {CONFIG_FILE}, {SERVERS_JSON}, {MCPGAUGE}, {PORT}, {API_KEY}, {WORK_DIR}; {PORT} = HTTP-served, else stdio)',
  example: 'cmd:{MCPGAUGE} proxy --config {CONFIG_FILE} --transport stdio',
  start: 'cmd:',
  accepts: (spec) => spec.startsWith('cmd:'),
  parse(spec, name, where) {
    const template = spec.slice(4).trim();
    if (!template) throw new UserError(`${where}: cmd: needs a command template`);
    return { name: name ?? 'cmd', kind: 'cmd', spec, template };
  },
  open: async (spec, ctx) => {
    const { launchCommand, openProxy } = await proxyOpen();
    return openProxy(spec, ctx, () => launchCommand(spec, spec.template, ctx));
  },
  /** fill its template (adapter placeholders) and start it; stdio-served (the live stage spawns it) unless it uses {PORT} */
  measure: async (spec, env) =>
    (await measure()).measureLive(spec, env, async (opts) => {
      const { fillCommand, freePort, launchProxy, runtimeValues, shellLine } = await adapter();
      const apiKey = randomBytes(16).toString('hex');
      const http = spec.template.includes('{PORT}');
      const values = {
        ...runtimeValues(spec.template),
        CONFIG_FILE: env.configFile,
        SERVERS_JSON: JSON.stringify(env.upstreams),
        PORT: http ? String(await freePort()) : '0',
        API_KEY: apiKey,
        WORK_DIR: env.dir,
      };
      if (!http)
        return {
          opts: {
            ...opts,
            proxyCmd: shellLine(fillCommand(spec.template, values, `--system ${spec.name}`)),
            upstreamsFile: env.configFile,
          },
        };
      const running = await launchProxy(
        { kind: 'command', command: spec.template, url: 'http://127.0.0.1:{PORT}/mcp' },
        { workDir: env.dir, values, secrets: [apiKey] },
      );
      const t = running.target;
      // an HTTP-served proxy needs a moment to listen
      const next = { ...opts, proxyUrl: t.kind === 'http' ? t.url : undefined, apiKey, upstreamsFile: env.configFile };
      next.readyTimeoutMs = Math.max(next.readyTimeoutMs ?? 10_000, 10_000);
      return { opts: next, running };
    }),
};
