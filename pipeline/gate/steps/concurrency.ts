/** 4. concurrency: 4 parallel calls to the barrier fixture (N=4) all return before its timeout. */
import { resultText } from '../../mcp/client.ts';
import { describeOutcome, mainSession, nonce, outcomeOf, within } from '../calls.ts';
import { markRoleLog, requireRoleEvidence } from '../evidence.ts';
import { BARRIER_N, upstreamName } from '../cell-fixtures.ts';
import type { StepDef } from '../types.ts';

export const step: StepDef = {
  meta: { name: 'concurrency', title: `${BARRIER_N} parallel calls are not serialized` },
  async run(ctx) {
    const s = mainSession(ctx);
    const tool = `${upstreamName('barrier')}:echo`;
    const m = await s.resolve(tool); // name lookups happen before the clock starts
    const barrierMs = ctx.cfg.timeouts.barrier_timeout_s * 1000;
    // serialized calls are held until the barrier's safety timeout: the deadline sits one second before it
    const deadline = barrierMs - 1000;
    // the `barrier` prefix selects the barrier per call in a single-upstream cell (fixture roles mode)
    const nonces = Array.from({ length: BARRIER_N }, () => nonce('barrier'));
    const mark = markRoleLog(ctx, 'barrier');
    const t0 = performance.now();
    const calls = nonces.map((n) => s.call(tool, { input: n }, { timeoutMs: barrierMs + 5000 }));
    const outs = await Promise.all(calls.map((c) => outcomeOf(c, deadline)));
    const ms = Math.round(performance.now() - t0);
    // leave no call of this step in flight (a serializing proxy is still working through them), so
    // the next steps start on a quiet proxy and only show their own defects
    await within(Promise.allSettled(calls), ctx.cfg.timeouts.step_ms, 'the parallel calls').catch(() => {});
    // credited only if the barrier fixture itself saw them (a barrier window released)
    const seen = await requireRoleEvidence(ctx, 'concurrency', mark, tool, m, outs.map(describeOutcome));
    const bad = outs
      .map((o, i) => (o.kind === 'ok' && resultText(o.result).includes(nonces[i]) ? null : `call ${i + 1}: ${describeOutcome(o)}`))
      .filter((x): x is string => x !== null);
    if (bad.length) {
      return {
        status: 'fail',
        reason: `${bad.length} of ${BARRIER_N} parallel calls did not return their own nonce within ${deadline} ms (barrier timeout ${barrierMs} ms; serialized calls are held until it): ${bad.join('; ')}`,
        evidence: { deadline_ms: deadline, elapsed_ms: ms, fixture_lines: seen },
      };
    }
    return {
      status: 'pass',
      reason: `${BARRIER_N} parallel calls met at the barrier and returned in ${ms} ms (deadline ${deadline} ms)`,
      evidence: { elapsed_ms: ms, deadline_ms: deadline, fixture_lines: seen },
    };
  },
};
