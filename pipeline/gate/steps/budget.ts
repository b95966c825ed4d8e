/**
 * 10. budget: the proxy's menu (its tools/list rendered like the baseline_json arm) and the median
 * discovery response, in tokens, within the config's budgets. Also measures recall@5 over the
 * config's queries and discovery latency, for the regression step and later baselines.
 */
import { getArm } from '../../../arms/registry.ts';
import { BASELINE_ARM_ID } from '../../constants.ts';
import { recordOf } from '../../live/live-stage.ts';
import { getTokenizer } from '../../tokens/tokenizer.ts';
import { percentile } from '../../util/stats.ts';
import { matchToolName } from '../../adapter/index.ts';
import { mainSession, within } from '../calls.ts';
import { ROLES, upstreamName } from '../cell-fixtures.ts';
import type { StepDef } from '../types.ts';

export const step: StepDef = {
  meta: { name: 'budget', title: 'menu and discovery-response tokens within budget' },
  async run(ctx) {
    const s = mainSession(ctx);
    const b = ctx.cfg.budgets;
    const tk = getTokenizer(b.tokenizer);
    const tools = await within(s.listTools(ctx.cfg.timeouts.step_ms), ctx.cfg.timeouts.step_ms + 500, 'tools/list');
    const menu = tk.count(getArm(BASELINE_ARM_ID).renderListing(tools.map((t) => recordOf('proxy', t))));
    ctx.metrics.tokenizer = b.tokenizer;
    ctx.metrics.menu_tokens = menu;
    const problems: string[] = [];
    if (menu > b.menu_tokens) problems.push(`menu ${menu} tokens > budget ${b.menu_tokens}`);
    const evidence: Record<string, unknown> = { tokenizer: b.tokenizer, menu_tokens: menu, menu_budget: b.menu_tokens, proxy_tools: tools.length, provenance: 'measured' };
    if (s.style === 'discovery') {
      const sizes: number[] = [];
      const ms: number[] = [];
      let hits = 0;
      for (const q of b.queries) {
        const r = await within(s.discover(q.query, { limit: b.limit, detail: 'full', timeoutMs: ctx.cfg.timeouts.step_ms }), ctx.cfg.timeouts.step_ms + 500, 'discovery');
        if (r.isError) throw new Error(`discovery ${JSON.stringify(q.query)} returned a tool error: ${r.text.slice(0, 200)}`);
        sizes.push(tk.count(r.text));
        ms.push(r.ms);
        const top = r.names.slice(0, 5);
        if (ROLES.some((role) => matchToolName(top, upstreamName(role), q.tool, ctx.opts.adapter.toolMap).name !== null)) hits++;
      }
      const median = percentile(sizes, 50);
      ctx.metrics.discovery_median_tokens = median;
      ctx.metrics.recall_at_5 = hits / b.queries.length;
      ctx.metrics.latency_p95_ms = Math.round(percentile(ms, 95) * 10) / 10;
      ctx.metrics.n = b.queries.length;
      Object.assign(evidence, { discovery_median_tokens: median, discovery_budget: b.discovery_median_tokens, n: sizes.length, recall_at_5: ctx.metrics.recall_at_5, latency_p95_ms: ctx.metrics.latency_p95_ms });
      if (median > b.discovery_median_tokens) problems.push(`median discovery response ${median} tokens > budget ${b.discovery_median_tokens}`);
    }
    if (problems.length) return { status: 'fail', reason: problems.join('; '), evidence };
    const disc = s.style === 'discovery' ? `, median discovery response ${ctx.metrics.discovery_median_tokens} <= ${b.discovery_median_tokens} (n=${b.queries.length})` : ' (pass-through: no discovery response to budget)';
    return { status: 'pass', reason: `menu ${menu} <= ${b.menu_tokens} ${b.tokenizer} tokens${disc}`, evidence };
  },
};
