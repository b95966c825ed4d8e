/** 5. hang: a hanging upstream call comes back as a well-formed error within the call timeout; the next call succeeds. */
import { resultText } from '../../mcp/client.ts';
import { describeOutcome, mainSession, nonce, oneLine, outcomeOf, within } from '../calls.ts';
import { upstreamName } from '../cell-fixtures.ts';
import type { StepDef } from '../types.ts';

export const step: StepDef = {
  meta: { name: 'hang', title: 'a hung upstream call ends in an error within the call timeout' },
  async run(ctx) {
    const s = mainSession(ctx);
    const t = ctx.cfg.timeouts;
    const slow = `${upstreamName('main')}:slow`;
    await s.resolve(slow);
    const deadline = t.proxy_call_timeout_ms + t.hang_margin_ms;
    const ac = new AbortController();
    // the upstream sleeps 10 minutes: from the proxy's side a call that never answers
    const o = await outcomeOf(s.call(slow, { ms: 600_000 }, { timeoutMs: deadline + 10_000, signal: ac.signal }), deadline);
    if (o.kind === 'no_answer' || o.kind === 'transport_error') ac.abort();
    if (o.kind !== 'tool_error' && o.kind !== 'rpc_error') {
      return {
        status: 'fail',
        reason: `a call to a hanging upstream must end in a tool error or JSON-RPC error within the gate's call-timeout policy ${t.proxy_call_timeout_ms} ms (+${t.hang_margin_ms} ms; config timeouts.proxy_call_timeout_ms, given to the proxy only where its command uses {CALL_TIMEOUT_MS}): ${describeOutcome(o)}`,
        evidence: { outcome: o.kind, ms: Math.round(o.ms) },
      };
    }
    const n = nonce('after');
    const echo = `${upstreamName('main')}:echo`;
    const next = await within(s.call(echo, { input: n }, { timeoutMs: t.step_ms }), t.step_ms + 500, echo);
    if (next.isError || !resultText(next).includes(n))
      return { status: 'fail', reason: `the call after the hang failed: ${oneLine(resultText(next))}` };
    return {
      status: 'pass',
      reason: `${describeOutcome(o)}; the next call succeeded`,
      evidence: { outcome: o.kind, ms: Math.round(o.ms), call_timeout_ms: t.proxy_call_timeout_ms },
    };
  },
};
