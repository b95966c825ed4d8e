/**
 * `url:<URL>`: a proxy already running (`--api-key`); its upstreams are its own business, so it
 * cannot be put in front of the scale sweep's catalogs.
 */
import { UserError } from '../../types.ts';
import type { SystemKindEntry } from '../types.ts';

// heavy modules load when a system is opened or measured, not when a --system SPEC is parsed (every CLI start)
const proxyOpen = () => import('../proxy-open.ts');
const measure = () => import('../measure.ts');

export const urlKind: SystemKindEntry<'url', { url: string }> = {
  kind: 'url',
  syntax: 'url:<URL>',
  description: 'a proxy already running (`--api-key`; its upstreams are its own business)',
  example: 'url:http://127.0.0.1:8092/mcp',
  start: 'url:',
  accepts: (spec) => spec.startsWith('url:'),
  parse(spec, name, where) {
    const url = spec.slice(4).trim();
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new UserError(`${where}: not a valid URL: ${JSON.stringify(url)}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UserError(`${where}: the URL must be http:// or https://`);
    return { name: name ?? 'url', kind: 'url', spec, url };
  },
  open: async (spec, ctx) => {
    const { openProxy } = await proxyOpen();
    const { launchProxy } = await import('../../adapter/index.ts');
    return openProxy(spec, ctx, async () => ({
      running: await launchProxy(
        { kind: 'url', url: spec.url, apiKey: ctx.apiKey },
        { workDir: ctx.workDir, values: {}, secrets: ctx.apiKey ? [ctx.apiKey] : [] },
      ),
    }));
  },
  measure: async (spec, env) =>
    (await measure()).measureLive(spec, env, async (opts) => ({
      opts: { ...opts, proxyUrl: spec.url, apiKey: env.base.apiKey, upstreamsFile: env.base.upstreamsFile ?? env.configFile },
    })),
  fixedUpstreams: { what: 'a running proxy (url:)', reason: 'url: a running proxy cannot be put in front of the N-tool catalog' },
};
