/**
 * `reference[:retriever=ID]`: this project's proxy (`mcpgauge proxy --transport stdio`, a child
 * process of its own so its memory is its own), with the given retriever (absent = the proxy's
 * default).
 */
import { UserError } from '../../types.ts';
import type { SystemKindEntry } from '../types.ts';

// heavy modules load when a system is opened or measured, not when a --system SPEC is parsed (every CLI start)
const proxyOpen = () => import('../proxy-open.ts');
const measure = () => import('../measure.ts');

const TEMPLATE = '{MCPGAUGE} proxy --config {CONFIG_FILE} --transport stdio';

export const referenceKind: SystemKindEntry<'reference', { retriever?: string }> = {
  kind: 'reference',
  syntax: 'reference[:retriever=ID]',
  description: 'the embedded reference proxy (`retriever=ID` sets its retriever)',
  example: 'reference:retriever=bm25',
  start: 'reference',
  accepts: (spec) => spec === 'reference' || spec.startsWith('reference:'),
  parse(spec, name, where) {
    const out: { name: string; kind: 'reference'; spec: string; retriever?: string } = {
      name: name ?? 'reference',
      kind: 'reference',
      spec,
    };
    for (const opt of spec
      .slice('reference'.length + 1)
      .split(',')
      .filter(Boolean)) {
      const m = /^retriever=([A-Za-z0-9_.-]+)$/.exec(opt.trim());
      if (!m) throw new UserError(`${where}: unknown reference option ${JSON.stringify(opt)} (valid: retriever=ID)`);
      out.retriever = m[1];
    }
    return out;
  },
  open: async (spec, ctx) => {
    const { launchCommand, openProxy } = await proxyOpen();
    return openProxy(spec, ctx, () => launchCommand(spec, TEMPLATE, ctx, spec.retriever));
  },
  measure: async (spec, env) =>
    (await measure()).measureLive(spec, env, async (opts) => {
      if (spec.retriever !== undefined) opts.retriever = spec.retriever;
      return { opts };
    }),
};
