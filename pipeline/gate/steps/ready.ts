/** 1. ready: the proxy serves every fixture's tools (polled until a deadline). */
import { openProxySession, type ProxySession } from '../../adapter/index.ts';
import { oneLine, sleep } from '../calls.ts';
import { ROLES, upstreamName } from '../fixtures.ts';
import type { StepDef } from '../types.ts';

export const step: StepDef = {
  meta: { name: 'ready', title: "the proxy serves the fixtures' tools" },
  async run(ctx) {
    const deadline = Date.now() + ctx.cfg.timeouts.ready_ms;
    let session: ProxySession | undefined;
    let last = 'never tried';
    let polls = 0;
    while (Date.now() < deadline) {
      polls++;
      const exited = ctx.proxy.exit();
      if (exited) return { status: 'fail', reason: `the proxy exited before it was ready (code ${exited.code}, signal ${exited.signal}): ${last}` };
      try {
        session ??= await openProxySession(ctx.proxy.target, {
          adapter: ctx.opts.adapter,
          protocol: ctx.opts.clientProtocol,
          timeoutMs: Math.max(1000, Math.min(ctx.cfg.timeouts.step_ms, deadline - Date.now())),
          clientName: 'mcpgauge-gate',
        });
        const missing: string[] = [];
        const names: Record<string, string> = {};
        // single-upstream cell: every role's name resolves to the one fixture's tool (fixtures.ts)
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
            evidence: { style: session.style, style_reason: session.styleReason, proxy_tools: session.tools.length, names, polls },
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
    return { status: 'fail', reason: `not ready within ${ctx.cfg.timeouts.ready_ms} ms: ${last}`, evidence: { polls } };
  },
};
