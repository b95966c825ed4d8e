/** 6. crash mid-call: the in-flight call fails cleanly; the proxy reconnects by itself (new instance, counter reset). */
import { describeOutcome, mainSession, outcomeOf } from '../calls.ts';
import { markRoleLog, requireRoleEvidence } from '../evidence.ts';
import { upstreamName } from '../cell-fixtures.ts';
import { awaitNewInstance, ping } from '../recovery.ts';
import type { StepDef } from '../types.ts';

export const step: StepDef = {
  meta: { name: 'crash', title: 'crash mid-call, then reconnect without a restart request' },
  async run(ctx) {
    const s = mainSession(ctx);
    const t = ctx.cfg.timeouts;
    const server = upstreamName('crash');
    // tools/call #1 of the crash fixture: the ping before; #2 (echo) makes it exit(1) with the call in flight
    const before = await ping(s, server, t.step_ms);
    const m = await s.resolve(`${server}:echo`);
    const mark = markRoleLog(ctx, 'crash');
    // the `crash` prefix selects the crash per call in a single-upstream cell (fixture roles mode)
    const o = await outcomeOf(s.call(`${server}:echo`, { input: 'crashnow' }, { timeoutMs: t.step_ms + 5000 }), t.step_ms);
    // credited only if the crash fixture itself logged its exit
    const seen = await requireRoleEvidence(ctx, 'crash', mark, `${server}:echo`, m, [describeOutcome(o)]);
    if (o.kind === 'ok' || o.kind === 'no_answer') {
      return {
        status: 'fail',
        reason: `the call in flight when the upstream crashed must fail cleanly (tool or JSON-RPC error): ${describeOutcome(o)}`,
        evidence: { outcome: o.kind, fixture_lines: seen },
      };
    }
    const exited = ctx.proxy.exit();
    if (exited)
      return { status: 'fail', reason: `the proxy exited when its upstream crashed (code ${exited.code}, signal ${exited.signal})` };
    const r = await awaitNewInstance(s, server, before.instance_id, t.recovery_ms, t.step_ms);
    return {
      status: r.ok ? 'pass' : 'fail',
      reason: `in-flight call: ${describeOutcome(o)}; ${r.reason}`,
      evidence: { in_flight: o.kind, fixture_lines: seen, ...r.evidence },
    };
  },
};
