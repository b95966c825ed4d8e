/**
 * 9. cancellation: the client cancels a hanging call; the cancellation reaches the upstream (the
 * hang fixture's `stats` shows nothing left hanging), and no upstream process is left behind: after
 * the cancellation there are no more hang-fixture processes than just before the call (a gateway
 * that runs one upstream child per session, e.g. supergateway --stateful, legitimately has several:
 * the other sessions' children are counted on both sides), and at least one. A docker cell counts
 * the hang role's containers the same way.
 */
import { callJson, mainSession, sleep } from '../calls.ts';
import { containerLabels, taggedPids, upstreamName } from '../cell-fixtures.ts';
import { markRoleLog, requireRoleEvidence } from '../evidence.ts';
import { containersWith } from '../docker.ts';
import type { CellContext, StepDef, StepOutcome } from '../types.ts';

export const step: StepDef = {
  meta: { name: 'cancel', title: 'a cancelled call is cancelled upstream, no orphan left' },
  async run(ctx) {
    const s = mainSession(ctx);
    const t = ctx.cfg.timeouts;
    const server = upstreamName('hang');
    const stats = async () => (await callJson(s, `${server}:stats`, {}, t.step_ms))?.fault as { hanging: number; hang_fired: boolean };
    const m = await s.resolve(`${server}:echo`);
    const mark = markRoleLog(ctx, 'hang');
    const pidsBefore = ctx.cell.transport === 'stdio' ? taggedPids(ctx.fixtures.roles.hang.tag) : [];
    // docker: the hang role's containers just before the call (one per proxy session, as stdio's processes)
    const containersBefore = ctx.cell.transport === 'docker' ? await containersWith(hangLabels(ctx)) : [];
    const ac = new AbortController();
    const started = Date.now();
    // tools/call #1 of the hang fixture hangs until the client gives up
    const call = s.call(`${server}:echo`, { input: 'hangme' }, { signal: ac.signal, timeoutMs: t.step_ms + t.cancel_ms + 10_000 });
    call.catch(() => {});
    let held = false;
    const heldBy = Date.now() + t.step_ms;
    while (Date.now() < heldBy) {
      const f = await stats();
      if (f.hanging >= 1) {
        held = true;
        break;
      }
      await sleep(50);
    }
    if (!held) ac.abort();
    // credited only if the hang fixture itself logged the hung call
    const seen = await requireRoleEvidence(ctx, 'cancel', mark, `${server}:echo`, m);
    if (!held) {
      return { status: 'fail', reason: `the hanging call never reached the upstream within ${t.step_ms} ms` };
    }
    ac.abort('cancelled by the gate');
    const t0 = Date.now();
    let f = await stats();
    while (f.hanging !== 0 && Date.now() - t0 < t.cancel_ms) {
      await sleep(100);
      f = await stats();
    }
    if (f.hanging !== 0) {
      return {
        status: 'fail',
        reason: `the client's cancellation did not reach the upstream: its stats still show ${f.hanging} call(s) hanging ${t.cancel_ms} ms after notifications/cancelled`,
        evidence: { fault: f },
      };
    }
    const cancelledAfter = Date.now() - t0;
    const sinceCall = Date.now() - started;
    const evidence: Record<string, unknown> = {
      cancelled_after_ms: cancelledAfter,
      since_call_ms: sinceCall,
      proxy_call_timeout_ms: t.proxy_call_timeout_ms,
      fault: f,
      fixture_lines: seen,
    };
    // a proxy that drops the cancellation still frees the upstream when its own call timeout fires:
    // that is not the cancellation reaching the upstream
    if (sinceCall >= t.proxy_call_timeout_ms) {
      return {
        status: 'fail',
        reason: `the upstream call ended ${sinceCall} ms after it started, i.e. at the proxy's own call timeout (${t.proxy_call_timeout_ms} ms), not ${cancelledAfter} ms after the client's cancellation: the cancellation did not reach the upstream`,
        evidence,
      };
    }
    const orphan = await orphanCheck(ctx, pidsBefore, containersBefore, evidence);
    if (orphan) return orphan;
    const alone =
      ctx.cell.transport === 'stdio'
        ? pidsBefore.length > 1
          ? `, ${(evidence.hang_fixture_processes as number[]).length} fixture process(es), no more than before the call (${pidsBefore.length}: one per proxy session), no orphan`
          : ', one fixture process, no orphan'
        : ctx.cell.transport === 'docker'
          ? ', one fixture container, no orphan'
          : '';
    return { status: 'pass', reason: `the cancellation reached the upstream after ${cancelledAfter} ms (hanging 0)${alone}`, evidence };
  },
};

const hangLabels = (ctx: CellContext) => containerLabels(ctx.runId, ctx.cell, ctx.fixtures.roles.hang.role);

/**
 * No orphan: after the cancelled call, no more hang-role upstreams than just before it, and at
 * least one (stdio: the fixture processes; docker: the containers). A fail result, or undefined.
 */
async function orphanCheck(
  ctx: CellContext,
  pidsBefore: number[],
  containersBefore: string[],
  evidence: Record<string, unknown>,
): Promise<StepOutcome | undefined> {
  if (ctx.cell.transport === 'stdio') {
    const pids = taggedPids(ctx.fixtures.roles.hang.tag);
    evidence.hang_fixture_processes = pids;
    if (pidsBefore.length !== 1) evidence.hang_fixture_processes_before = pidsBefore;
    const allowed = Math.max(1, pidsBefore.length);
    if (pids.length === 0 || pids.length > allowed) {
      const expected =
        allowed === 1
          ? 'exactly one hang-fixture process'
          : `at most ${allowed} hang-fixture processes (as many as just before the call: ${pidsBefore.join(', ')})`;
      return {
        status: 'fail',
        reason: `expected ${expected} after the cancelled call, found ${pids.length} (${pids.join(', ') || 'none'})`,
        evidence,
      };
    }
  }
  if (ctx.cell.transport === 'docker') {
    const ids = await containersWith(hangLabels(ctx));
    evidence.hang_fixture_containers = ids.map((i) => i.slice(0, 12));
    if (containersBefore.length !== 1) evidence.hang_fixture_containers_before = containersBefore.map((i) => i.slice(0, 12));
    // as for stdio's processes: no more than just before the call, and at least one
    const allowed = Math.max(1, containersBefore.length);
    if (ids.length === 0 || ids.length > allowed)
      return {
        status: 'fail',
        reason:
          allowed === 1
            ? `expected exactly one hang-fixture container after the cancelled call, found ${ids.length}`
            : `expected at most ${allowed} hang-fixture containers after the cancelled call (as many as just before it), found ${ids.length}`,
        evidence,
      };
  }
  return undefined;
}
