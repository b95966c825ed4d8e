/** 4. meta: the caller's `_meta` reaches the upstream and the upstream's `_meta` comes back intact (the fixture's echo returns what it received). */
import { isDeepStrictEqual } from 'node:util';
import { resultText } from '../../mcp/client.ts';
import { mainSession, nonce, oneLine, within } from '../calls.ts';
import { upstreamName } from '../cell-fixtures.ts';
import type { StepDef } from '../types.ts';

export const step: StepDef = {
  meta: { name: 'meta', title: "the caller's _meta round-trips" },
  async run(ctx) {
    const s = mainSession(ctx);
    const n = nonce('meta');
    const meta = { 'dev.mcpgauge/gate-nonce': n, 'dev.mcpgauge/trace': { cell: ctx.cell.id, hops: [1, 2] } };
    const tool = `${upstreamName('main')}:echo`;
    const r = await within(s.call(tool, { input: n }, { meta, timeoutMs: ctx.cfg.timeouts.step_ms }), ctx.cfg.timeouts.step_ms + 500, tool);
    const text = resultText(r);
    if (r.isError) return { status: 'fail', reason: `echo with _meta returned a tool error: ${oneLine(text)}` };
    if (!text.includes(n)) return { status: 'fail', reason: `echo answer does not carry the nonce ${n}: ${oneLine(text)}` };
    const back = (r._meta ?? {}) as Record<string, unknown>;
    const lost = Object.keys(meta).filter((k) => !isDeepStrictEqual(back[k], meta[k as keyof typeof meta]));
    if (lost.length) {
      return {
        status: 'fail',
        reason: `the caller's _meta did not come back intact: ${lost.map((k) => `${k} sent ${JSON.stringify(meta[k as keyof typeof meta])}, got ${JSON.stringify(back[k])}`).join('; ')}`,
        evidence: { sent_meta: meta, result_meta: r._meta ?? null },
      };
    }
    return {
      status: 'pass',
      reason: `nonce ${n} and ${Object.keys(meta).length} _meta keys came back`,
      evidence: { nonce: n, result_meta: r._meta },
    };
  },
};
