/** 3. call: an echo round-trips through the proxy with a unique nonce (no `_meta`: that is the meta step). */
import { resultText } from '../../mcp/client.ts';
import { mainSession, nonce, oneLine, within } from '../calls.ts';
import { upstreamName } from '../cell-fixtures.ts';
import type { StepDef } from '../types.ts';

export const step: StepDef = {
  meta: { name: 'call', title: 'echo round trip' },
  async run(ctx) {
    const s = mainSession(ctx);
    const n = nonce('call');
    const tool = `${upstreamName('main')}:echo`;
    const r = await within(s.call(tool, { input: n }, { timeoutMs: ctx.cfg.timeouts.step_ms }), ctx.cfg.timeouts.step_ms + 500, tool);
    const text = resultText(r);
    if (r.isError) return { status: 'fail', reason: `echo returned a tool error: ${oneLine(text)}` };
    if (!text.includes(n)) return { status: 'fail', reason: `echo answer does not carry the nonce ${n}: ${oneLine(text)}` };
    return { status: 'pass', reason: `nonce ${n} came back`, evidence: { nonce: n } };
  },
};
