/**
 * 7. kill between calls: the fixture process is killed from outside (stdio: its pid, from its own
 * `stats`, checked to carry this cell's tag; HTTP: the gate's own process, restarted on the same
 * port; docker: `docker kill` of the main fixture's container, found by its labels); the proxy
 * must reconnect by itself (docker: by starting a new container).
 */
import { callJson, mainSession } from '../calls.ts';
import { containerLabels, taggedPids, upstreamName } from '../cell-fixtures.ts';
import { containersWith, dockerKill } from '../docker.ts';
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
      const ours = taggedPids(ctx.fixtures.roles.main.tag);
      if (!Number.isInteger(pid) || !ours.includes(pid)) {
        return {
          status: 'fail',
          reason: `the fixture reports pid ${stats?.pid}, which is not a live process of this cell (tagged: ${ours.join(', ') || 'none'})`,
        };
      }
      process.kill(pid, 'SIGKILL');
      how = `SIGKILL to stdio fixture pid ${pid}`;
    } else if (ctx.cell.transport === 'docker') {
      const labels = containerLabels(ctx.runId, ctx.cell, 'main');
      const ids = await containersWith(labels, { running: true });
      if (ids.length !== 1)
        return {
          status: 'fail',
          reason: `expected exactly one running container of the main fixture (labels ${JSON.stringify(labels)}), found ${ids.length}`,
          evidence: { containers: ids.map((i) => i.slice(0, 12)) },
        };
      await dockerKill(ids[0]);
      const r = await awaitNewInstance(s, server, before.instance_id, t.recovery_ms, t.step_ms);
      const now = await containersWith(labels, { running: true });
      const evidence = { ...r.evidence, killed_container: ids[0].slice(0, 12), running_after: now.map((i) => i.slice(0, 12)) };
      if (r.ok && (now.length !== 1 || now[0] === ids[0])) {
        return {
          status: 'fail',
          reason: `docker kill ${ids[0].slice(0, 12)}; a new instance answered, but the running containers of the main fixture are ${JSON.stringify(evidence.running_after)} (expected exactly one new one)`,
          evidence,
        };
      }
      return {
        status: r.ok ? 'pass' : 'fail',
        reason: `docker kill ${ids[0].slice(0, 12)} (the main fixture's container); ${r.reason}${r.ok ? `, in a new container ${now[0].slice(0, 12)}` : ''}`,
        evidence,
      };
    } else {
      const old = ctx.fixtures.roles.main.proc?.pid;
      await ctx.fixtures.kill('main');
      how = `SIGKILL to HTTP fixture pid ${old}, restarted by the gate on port ${ctx.fixtures.roles.main.proc?.port}`;
    }
    const r = await awaitNewInstance(s, server, before.instance_id, t.recovery_ms, t.step_ms);
    return { status: r.ok ? 'pass' : 'fail', reason: `${how}; ${r.reason}`, evidence: r.evidence };
  },
};
