/**
 * 11. regression (optional, --baseline FILE): this cell's tokens, recall@5 and discovery latency
 * p95 against a stored gate report (same cell) or bench report (its live section), within the
 * config's tolerances; old/new values and the tolerance in the reason.
 */
import type { CellMetrics, StepDef } from '../types.ts';

function pct(oldV: number, newV: number): number {
  return oldV === 0 ? (newV === 0 ? 0 : Infinity) : (100 * (newV - oldV)) / oldV;
}

export const step: StepDef = {
  meta: { name: 'regression', title: 'no regression against the baseline', optional: true },
  async run(ctx) {
    const base = ctx.opts.baseline;
    if (!base) return { status: 'skipped', reason: 'no --baseline given' };
    const old: CellMetrics | undefined = base.byCell[ctx.cell.id] ?? base.all;
    if (!old) return { status: 'skipped', reason: `the baseline ${base.source} has no numbers for cell ${ctx.cell.id}` };
    const now = ctx.metrics;
    const tol = ctx.cfg.tolerances;
    const problems: string[] = [];
    const compared: string[] = [];
    const tokens = (key: 'menu_tokens' | 'discovery_median_tokens', label: string) => {
      const o = old[key];
      const n = now[key];
      if (o === undefined || n === undefined) return;
      if (old.tokenizer && now.tokenizer && old.tokenizer !== now.tokenizer) return;
      const d = pct(o, n);
      compared.push(`${label} ${o} -> ${n}`);
      if (d > tol.tokens_pct) problems.push(`${label} ${o} -> ${n} tokens (+${d.toFixed(1)}% > tolerance ${tol.tokens_pct}%)`);
    };
    tokens('menu_tokens', 'menu');
    tokens('discovery_median_tokens', 'median discovery response');
    if (old.recall_at_5 !== undefined && now.recall_at_5 !== undefined) {
      const drop = old.recall_at_5 - now.recall_at_5;
      compared.push(`recall@5 ${old.recall_at_5} -> ${now.recall_at_5}`);
      if (drop > tol.recall_at_5_drop + 1e-9)
        problems.push(`recall@5 ${old.recall_at_5} -> ${now.recall_at_5} (drop ${drop.toFixed(3)} > tolerance ${tol.recall_at_5_drop})`);
    }
    if (old.latency_p95_ms !== undefined && now.latency_p95_ms !== undefined) {
      const d = pct(old.latency_p95_ms, now.latency_p95_ms);
      compared.push(`latency p95 ${old.latency_p95_ms} -> ${now.latency_p95_ms} ms`);
      if (d > tol.latency_p95_pct)
        problems.push(
          `discovery latency p95 ${old.latency_p95_ms} -> ${now.latency_p95_ms} ms (+${d.toFixed(1)}% > tolerance ${tol.latency_p95_pct}%)`,
        );
    }
    const evidence = { baseline: base.source, baseline_kind: base.kind, old, new: now, tolerances: tol };
    if (compared.length === 0)
      return { status: 'skipped', reason: `nothing comparable between this cell and the baseline ${base.source}`, evidence };
    if (problems.length) return { status: 'fail', reason: `regression vs ${base.source}: ${problems.join('; ')}`, evidence };
    return { status: 'pass', reason: `within tolerances vs ${base.source}: ${compared.join(', ')}`, evidence };
  },
};
