/**
 * 10. budget: the proxy's menu (its tools/list rendered like the baseline_json arm) and the median
 * discovery response, in tokens, within the config's budgets. Also measures recall@5 over the
 * config's queries and discovery latency, for the regression step and later baselines.
 *
 * A verdict names its cause: an over-budget menu lists its largest tools, an over-budget median
 * its largest response; a text with a run longer than the tokenizer's run limit (a hostile
 * 150 KB description) is counted in bounded time and said to be an estimate
 * (`token_bound`); a call that fails says which phase, after how long, and the error's cause.
 */
import { getArm } from '../../../arms/registry.ts';
import { BASELINE_ARM_ID } from '../../constants.ts';
import { toolRecordOf } from '../../mcp/tool-record.ts';
import { getTokenizer, type Tokenizer } from '../../tokens/tokenizer.ts';
import { findCuts, MAX_ERROR_PER_CUT, RUN_LIMIT } from '../../tokens/bound.ts';
import { percentile } from '../../util/stats.ts';
import { matchToolName } from '../../adapter/index.ts';
import { UserError } from '../../types.ts';
import { mainSession, oneLine, within } from '../calls.ts';
import { ROLES, upstreamName } from '../cell-fixtures.ts';
import type { StepDef } from '../types.ts';

/** over-budget evidence: this many of the largest tools / responses */
const LARGEST_N = 3;

/** counts texts and remembers which of them were cut before tokenizing */
function boundedCounter(tk: Tokenizer) {
  let texts = 0;
  let cuts = 0;
  let longest = 0;
  return {
    count(text: string): number {
      const c = findCuts(text);
      if (c) {
        texts++;
        cuts += c.cuts.length;
        longest = Math.max(longest, c.longest);
      }
      return tk.count(text);
    },
    /** evidence when some text was cut, else undefined */
    bound() {
      return texts === 0
        ? undefined
        : { run_limit: RUN_LIMIT, bound: 'estimate', max_error_per_cut: MAX_ERROR_PER_CUT, texts, cuts, longest_run: longest };
    },
  };
}

/** an error's message with its cause chain (undici's "fetch failed" hides the reason in `cause`) */
function errorText(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; cur && depth < 4; depth++) {
    const err = cur as { message?: unknown; code?: unknown; cause?: unknown };
    const msg = typeof err.message === 'string' ? err.message : String(cur);
    parts.push(typeof err.code === 'string' && !msg.includes(err.code) ? `${msg} (${err.code})` : msg);
    cur = err.cause;
  }
  return oneLine(parts.join(': '), 400);
}

export const step: StepDef = {
  meta: { name: 'budget', title: 'menu and discovery-response tokens within budget' },
  async run(ctx) {
    const s = mainSession(ctx);
    const b = ctx.cfg.budgets;
    const stepMs = ctx.cfg.timeouts.step_ms;
    const tk = getTokenizer(b.tokenizer);
    const counter = boundedCounter(tk);
    const evidence: Record<string, unknown> = { tokenizer: b.tokenizer, menu_budget: b.menu_tokens, provenance: 'measured' };
    const t0 = performance.now();
    let phase = 'tools/list';
    const withBound = () => {
      const tb = counter.bound();
      if (tb) evidence.token_bound = tb;
      return tb
        ? ` (${tb.texts} text(s) held a run over ${tb.run_limit} characters, longest ${tb.longest_run}: counted in bounded time, within ${tb.max_error_per_cut} token per cut of exact, ${tb.cuts} cut(s))`
        : '';
    };
    try {
      const tools = await within(s.listTools(stepMs), stepMs + 500, 'tools/list');
      phase = 'counting the menu';
      const arm = getArm(BASELINE_ARM_ID);
      const records = tools.map((t) => toolRecordOf('proxy', t));
      const menu = counter.count(arm.renderListing(records));
      ctx.metrics.tokenizer = b.tokenizer;
      ctx.metrics.menu_tokens = menu;
      const problems: string[] = [];
      Object.assign(evidence, { menu_tokens: menu, proxy_tools: tools.length });
      if (menu > b.menu_tokens) {
        const largest = records
          .map((r) => ({ tool: r.tool, tokens: counter.count(arm.renderListing([r])), description_chars: r.description.length }))
          .sort((x, y) => y.tokens - x.tokens)
          .slice(0, LARGEST_N);
        evidence.largest_tools = largest;
        problems.push(
          `menu ${menu} tokens > budget ${b.menu_tokens} (largest: ${largest.map((l) => `${JSON.stringify(l.tool)} ${l.tokens}`).join(', ')})`,
        );
      }
      if (s.style === 'discovery') {
        const sizes: { query: string; tokens: number; chars: number; tools: string[] }[] = [];
        const ms: number[] = [];
        let hits = 0;
        for (const [i, q] of b.queries.entries()) {
          phase = `discovery ${i + 1} of ${b.queries.length} (${JSON.stringify(q.query)})`;
          const r = await within(s.discover(q.query, { limit: b.limit, detail: 'full', timeoutMs: stepMs }), stepMs + 500, 'discovery');
          if (r.isError) throw new Error(`discovery ${JSON.stringify(q.query)} returned a tool error: ${r.text.slice(0, 200)}`);
          sizes.push({ query: q.query, tokens: counter.count(r.text), chars: r.text.length, tools: r.names.slice(0, b.limit) });
          ms.push(r.ms);
          const top = r.names.slice(0, 5);
          if (ROLES.some((role) => matchToolName(top, upstreamName(role), q.tool, ctx.opts.adapter.toolMap).name !== null)) hits++;
        }
        const median = percentile(
          sizes.map((x) => x.tokens),
          50,
        );
        ctx.metrics.discovery_median_tokens = median;
        ctx.metrics.recall_at_5 = hits / b.queries.length;
        ctx.metrics.latency_p95_ms = Math.round(percentile(ms, 95) * 10) / 10;
        ctx.metrics.n = b.queries.length;
        Object.assign(evidence, {
          discovery_median_tokens: median,
          discovery_budget: b.discovery_median_tokens,
          n: sizes.length,
          recall_at_5: ctx.metrics.recall_at_5,
          latency_p95_ms: ctx.metrics.latency_p95_ms,
        });
        if (median > b.discovery_median_tokens) {
          const largest = [...sizes].sort((x, y) => y.tokens - x.tokens).slice(0, LARGEST_N);
          evidence.largest_responses = largest;
          problems.push(
            `median discovery response ${median} tokens > budget ${b.discovery_median_tokens} (largest: ${largest[0].tokens} tokens, ${largest[0].chars} characters, for ${JSON.stringify(largest[0].query)})`,
          );
        }
      }
      evidence.duration_ms = Math.round(performance.now() - t0);
      if (problems.length) return { status: 'fail', reason: problems.join('; ') + withBound(), evidence };
      const disc =
        s.style === 'discovery'
          ? `, median discovery response ${ctx.metrics.discovery_median_tokens} <= ${b.discovery_median_tokens} (n=${b.queries.length})`
          : ' (pass-through: no discovery response to budget)';
      return { status: 'pass', reason: `menu ${menu} <= ${b.menu_tokens} ${b.tokenizer} tokens${disc}${withBound()}`, evidence };
    } catch (e) {
      if (e instanceof UserError) throw e; // a harness error stays one (exit 2)
      const elapsed = Math.round(performance.now() - t0);
      Object.assign(evidence, { phase, error: errorText(e), duration_ms: elapsed, deadline_ms: stepMs });
      return {
        status: 'fail',
        reason: `${phase}: ${errorText(e)} after ${elapsed} ms (deadline per call ${stepMs} ms)${withBound()}`,
        evidence,
      };
    }
  },
};
