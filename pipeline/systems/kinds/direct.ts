/**
 * `direct`: no proxy. The client connects to every upstream itself: the upstreams' full menus in
 * context, every call direct, measured over MCP. Its side-by-side block is that full menu and the
 * time of a full listing (no discovery call); ready when every upstream has listed its tools.
 */
import type { McpConnection } from '../../mcp/client.ts';
import { TOKENIZER_NAMES } from '../../constants.ts';
import { percentile } from '../../util/stats.ts';
import type { DirectBlock } from '../../report/index.ts';
import type { OpenedSystem, SpecOf, SystemContext, SystemKindEntry } from '../types.ts';

const round3 = (x: number) => Math.round(x * 1000) / 1000;

async function openDirect(spec: SpecOf<'direct', object>, ctx: SystemContext): Promise<OpenedSystem> {
  // loaded when a system is opened, not when a --system SPEC is parsed (every CLI start)
  const { connectMcp } = await import('../../mcp/client.ts');
  const { targetOf } = await import('../../proxy/config.ts');
  const t0 = performance.now();
  const conns: { name: string; conn: McpConnection }[] = [];
  const close = async () => {
    await Promise.all(conns.map((c) => c.conn.close()));
  };
  try {
    const lists = await Promise.all(
      ctx.upstreams.map(async (u) => {
        const conn = await connectMcp(targetOf(u), { timeoutMs: ctx.timeoutMs, protocol: u.protocol ?? ctx.protocol ?? 'legacy' });
        conns.push({ name: u.name, conn });
        return (await conn.listAllTools({ timeoutMs: ctx.timeoutMs })).map((tool) => ({ server: u.name, tool }));
      }),
    );
    const readyMs = performance.now() - t0;
    return {
      spec,
      description: `direct: ${ctx.upstreams.length} upstream(s) connected by the client itself (${ctx.upstreams.map((u) => u.name).join(', ')})`,
      readyMs,
      readyRule: 'every upstream connected and listed (all pages)',
      menu: lists.flat(),
      async relist() {
        const t = performance.now();
        await Promise.all(conns.map((c) => c.conn.listAllTools({ timeoutMs: ctx.timeoutMs })));
        return performance.now() - t;
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

export const directKind: SystemKindEntry<'direct'> = {
  kind: 'direct',
  syntax: 'direct',
  description: 'no proxy: the client connects to every upstream itself (full menus in context, every call direct)',
  example: 'direct',
  start: 'direct',
  accepts: (spec) => spec === 'direct',
  parse: (spec, name) => ({ name: name ?? 'direct', kind: 'direct', spec }),
  open: openDirect,
  /** connect to every upstream, count the full menu, time `runs` full listings (taking turns) */
  async measure(spec, { base: o, upstreams, dir, turns }) {
    const sys = await openDirect(spec, {
      upstreams,
      workDir: dir,
      expectedTools: 0,
      probeQuery: '',
      timeoutMs: o.timeoutMs ?? 60_000,
      readyTimeoutMs: 60_000,
      protocol: o.protocol,
    });
    try {
      const timed: number[] = [];
      for (let r = 0; r < (o.runs ?? 3); r++) timed.push(await turns.run(() => sys.relist()));
      const { getTokenizer } = await import('../../tokens/tokenizer.ts');
      const { listingTokens } = await import('../menu.ts');
      const tokenizers = (o.tokenizers ?? [...TOKENIZER_NAMES]).map(getTokenizer);
      const counts = listingTokens(sys.menu, tokenizers);
      const direct: DirectBlock = {
        menus: tokenizers.map((tk) => ({
          tokenizer: tk.name,
          menu_tokens: { value: counts[tk.name], unit: 'tokens', provenance: 'measured', tokenizer: tk.name, n: sys.menu.length },
          tool_count: sys.menu.length,
        })),
        latency: {
          n: timed.length,
          p50_ms: round3(percentile(timed, 50)),
          p99_ms: round3(percentile(timed, 99)),
          max_ms: round3(Math.max(...timed)),
          of: 'a full tools/list of every upstream (all pages), client-measured',
        },
        upstreams: upstreams.map((u) => u.name),
      };
      return { name: spec.name, kind: 'direct', spec: spec.spec, description: sys.description, direct };
    } finally {
      await sys.close();
    }
  },
};
