/**
 * 1. ready: the proxy serves every fixture's tools (polled until a deadline). The deadline is
 * `ready_ms`, or READY_SCALE x the fixture's measured start-up on this machine when that is longer
 * (a loaded machine is not a broken proxy). A proxy that exits is told apart from one that is alive
 * but slow: the evidence says whether it is alive, whether its port accepts connections and what it
 * last logged.
 */
import { connect } from 'node:net';
import { openProxySession, type ProxySession, type RunningProxy } from '../../adapter/index.ts';
import { oneLine, sleep } from '../calls.ts';
import { ROLES, upstreamName } from '../cell-fixtures.ts';
import type { CellContext, StepDef } from '../types.ts';

/** The ready deadline is at least this many fixture start-ups (measured by the preflight). */
export const READY_SCALE = 10;

export function readyDeadlineMs(readyMs: number, fixtureStartMs: number | undefined): number {
  return Math.max(readyMs, fixtureStartMs ? Math.round(READY_SCALE * fixtureStartMs) : 0);
}

/** Does anything accept a TCP connection on the proxy's URL (HTTP-served proxies only)? */
function listening(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      resolve(false);
      return;
    }
    const sock = connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 80) });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/** What the gate can see of the proxy while it waits: alive, listening, the last lines it logged. */
async function liveness(proxy: RunningProxy): Promise<Record<string, unknown>> {
  const exited = proxy.exit();
  const lines = proxy
    .output()
    .trim()
    .split('\n')
    .filter(Boolean)
    .slice(-5)
    .map((l) => l.slice(0, 300));
  const ev: Record<string, unknown> = { served: proxy.served, alive: exited === null, last_log_lines: lines };
  if (proxy.pid !== undefined) ev.pid = proxy.pid;
  if (exited) ev.exit = exited;
  if (proxy.target.kind !== 'stdio' && exited === null) ev.listening = await listening(proxy.target.url);
  return ev;
}

function describe(ev: Record<string, unknown>): string {
  const parts: string[] = [];
  if (ev.served === 'http' && ev.alive) {
    parts.push(ev.pid !== undefined ? `pid ${ev.pid} alive` : 'alive');
    if (ev.listening !== undefined) parts.push(ev.listening ? 'its port accepts connections' : 'nothing listening on its port');
  }
  const lines = ev.last_log_lines as string[];
  parts.push(lines.length ? `last logged: ${oneLine(lines.join(' | ')).slice(-300)}` : 'nothing logged');
  return parts.join(', ');
}

export const step: StepDef = {
  meta: { name: 'ready', title: "the proxy serves the fixtures' tools" },
  async run(ctx: CellContext) {
    const limit = readyDeadlineMs(ctx.cfg.timeouts.ready_ms, ctx.opts.fixtureStartMs);
    const deadline = Date.now() + limit;
    const timing = {
      deadline_ms: limit,
      ready_ms: ctx.cfg.timeouts.ready_ms,
      ...(ctx.opts.fixtureStartMs ? { fixture_start_ms: ctx.opts.fixtureStartMs, scale: READY_SCALE } : {}),
    };
    let session: ProxySession | undefined;
    let last = 'never tried';
    let polls = 0;
    while (Date.now() < deadline) {
      polls++;
      const exited = ctx.proxy.exit();
      if (exited) {
        const ev = await liveness(ctx.proxy);
        return {
          status: 'fail',
          reason: `the proxy exited before it was ready (code ${exited.code}, signal ${exited.signal}): ${last}; ${describe(ev)}`,
          evidence: { ...ev, ...timing, polls },
        };
      }
      try {
        session ??= await openProxySession(ctx.proxy.target, {
          adapter: ctx.opts.adapter,
          protocol: ctx.opts.clientProtocol,
          timeoutMs: Math.max(1000, Math.min(ctx.cfg.timeouts.step_ms, deadline - Date.now())),
          clientName: 'mcpgauge-gate',
        });
        const missing: string[] = [];
        const names: Record<string, string> = {};
        // single-upstream cell: every role's name resolves to the one fixture's tool (cell-fixtures.ts)
        for (const role of ROLES) {
          const m = await session.resolve(`${upstreamName(role)}:echo`);
          if (m.name === null) missing.push(`${upstreamName(role)}:echo (${m.how})`);
          else names[upstreamName(role)] = m.name;
        }
        if (missing.length === 0) {
          ctx.session = session;
          return {
            status: 'pass',
            reason: `${session.style} proxy (${session.styleReason}) serves echo of ${ctx.fixtures.single ? `every role (${ROLES.join(', ')}) on its one fixture (gate_main, roles mode)` : `all ${ROLES.length} fixtures`} after ${polls} poll(s)`,
            evidence: {
              style: session.style,
              style_reason: session.styleReason,
              proxy_tools: session.tools.length,
              names,
              polls,
              ...timing,
            },
          };
        }
        last = `not served yet: ${missing.join('; ')}`;
      } catch (e) {
        last = oneLine((e as Error).message);
        if (session) await session.close().catch(() => {});
        session = undefined;
      }
      await sleep(250);
    }
    if (session) await session.close().catch(() => {});
    const ev = await liveness(ctx.proxy);
    if (!ev.alive)
      return {
        status: 'fail',
        reason: `the proxy exited before it was ready: ${last}; ${describe(ev)}`,
        evidence: { ...ev, ...timing, polls },
      };
    // alive but not serving by the deadline: a failure, with what the gate saw (distinct from an exit)
    return {
      status: 'fail',
      reason: `alive but not ready within ${limit} ms: ${last}; ${describe(ev)}`,
      evidence: { ...ev, ...timing, polls },
    };
  },
};
