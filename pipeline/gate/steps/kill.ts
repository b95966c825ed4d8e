/**
 * 7. kill between calls: the fixture process is killed from outside (stdio: its pid, from its own
 * `stats`, checked to carry this cell's tag; HTTP: the gate's own process, restarted on the same
 * port); the proxy must reconnect by itself.
 */
import { callJson, mainSession } from '../calls.ts';
import { cellTag, taggedPids, upstreamName } from '../fixtures.ts';
import { awaitNewInstance, ping } from '../recovery.ts';
import type { StepDef } from '../types.ts';

export const step: StepDef = {
  meta: { name: 'kill', title: 'kill between calls, then reconnect without a restart request' },
  async run(ctx) {
    const s = mainSession(ctx);
    const t = ctx.cfg.timeouts;
    const server = upstreamName('main');
    const before = await ping(s, server, t.step_ms);
    let how: string;
    if (ctx.cell.transport === 'stdio') {
      const stats = await callJson(s, `${server}:stats`, {}, t.step_ms);
      const pid = Number(stats?.pid);
      const ours = taggedPids(cellTag(ctx.runId, ctx.cell, 'main'));
      if (!Number.isInteger(pid) || !ours.includes(pid)) {
        return { status: 'fail', reason: `the fixture reports pid ${stats?.pid}, which is not a live process of this cell (tagged: ${ours.join(', ') || 'none'})` };
      }
      process.kill(pid, 'SIGKILL');
      how = `SIGKILL to stdio fixture pid ${pid}`;
    } else {
      const old = ctx.fixtures.roles.main.proc?.pid;
      await ctx.fixtures.kill('main');
      how = `SIGKILL to HTTP fixture pid ${old}, restarted by the gate on port ${ctx.fixtures.roles.main.proc?.port}`;
    }
    const r = await awaitNewInstance(s, server, before.instance_id, t.recovery_ms, t.step_ms);
    return { status: r.ok ? 'pass' : 'fail', reason: `${how}; ${r.reason}`, evidence: r.evidence };
  },
};
