/** 2. discover: the search tool finds the fixture's echo (discovery) / echo is listed (pass-through). */
import { matchToolName } from '../../adapter/index.ts';
import { mainSession, within } from '../calls.ts';
import { upstreamName } from '../cell-fixtures.ts';
import type { StepDef } from '../types.ts';

export const step: StepDef = {
  meta: { name: 'discover', title: "the fixture's echo is found" },
  async run(ctx) {
    const s = mainSession(ctx);
    const server = upstreamName('main');
    if (s.style === 'passthrough') {
      const tools = await within(s.listTools(ctx.cfg.timeouts.step_ms), ctx.cfg.timeouts.step_ms + 500, 'tools/list');
      const m = matchToolName(
        tools.map((t) => t.name),
        server,
        'echo',
        ctx.opts.adapter.toolMap,
      );
      if (m.name === null)
        return { status: 'fail', reason: `tools/list does not list ${server}'s echo (${m.how})`, evidence: { listed: tools.length } };
      return {
        status: 'pass',
        reason: `tools/list lists ${server}'s echo as ${JSON.stringify(m.name)} (${m.how})`,
        evidence: { name: m.name, listed: tools.length },
      };
    }
    const query = 'echo back an alphanumeric string';
    const r = await within(
      s.discover(query, { limit: ctx.cfg.budgets.limit, timeoutMs: ctx.cfg.timeouts.step_ms }),
      ctx.cfg.timeouts.step_ms + 500,
      ctx.opts.adapter.discoveryTool,
    );
    if (r.isError) return { status: 'fail', reason: `${ctx.opts.adapter.discoveryTool} returned a tool error: ${r.text.slice(0, 200)}` };
    const m = matchToolName(r.names, server, 'echo', ctx.opts.adapter.toolMap);
    const rank = m.name === null ? null : r.names.indexOf(m.name) + 1;
    if (m.name === null)
      return {
        status: 'fail',
        reason: `${ctx.opts.adapter.discoveryTool}(${JSON.stringify(query)}) does not return ${server}'s echo (got ${r.names.slice(0, 8).join(', ') || 'nothing'})`,
        evidence: { names: r.names },
      };
    return {
      status: 'pass',
      reason: `${ctx.opts.adapter.discoveryTool} returns ${m.name} at rank ${rank} of ${r.names.length}`,
      evidence: { query, rank, names: r.names.slice(0, 10), ms: Math.round(r.ms) },
    };
  },
};
