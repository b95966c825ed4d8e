/** Markdown rendering of a DiffResult (the JSON form is the DiffResult itself). */
import type { DiffResult, DiffRow, Verdict } from './compare.ts';
import { md } from '../util/escape.ts';

const MARK: Record<Verdict, string> = {
  regression: 'REGRESSION',
  removed: 'REMOVED',
  improvement: 'improved',
  within: 'within',
  unchanged: 'same',
  added: 'new',
};

function num(x: number | null): string {
  if (x === null) return '—';
  return Number.isInteger(x) ? String(x) : Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(3);
}
function signed(x: number | null): string {
  if (x === null) return '—';
  const s = num(x);
  return x > 0 ? `+${s}` : s;
}

function table(rows: readonly DiffRow[]): string[] {
  const out = ['| figure | unit | old | new | delta | delta % | rule | verdict |', '|---|---|---:|---:|---:|---:|---|---|'];
  for (const r of rows) {
    const ci = r.old_ci95 && r.new_ci95 ? ` (new CI [${num(r.new_ci95[0])}, ${num(r.new_ci95[1])}])` : '';
    out.push(
      `| ${md(r.label)} | ${r.unit} | ${num(r.old)} | ${num(r.new)} | ${signed(r.delta)} | ${r.delta_pct === null ? '—' : `${r.delta_pct > 0 ? '+' : ''}${r.delta_pct.toFixed(1)}%`} | ${md(r.rule + ci)} | ${MARK[r.verdict]} |`,
    );
  }
  return out;
}

export function renderDiffMarkdown(d: DiffResult): string {
  const s = d.summary;
  const lines = [
    `# mcpgauge diff: ${d.verdict === 'fail' ? 'FAIL' : 'pass'}`,
    '',
    `- old: \`${d.old.path}\` (${d.old.generated_at}, commit ${d.old.git_commit ?? 'unknown'})`,
    `- new: \`${d.new.path}\` (${d.new.generated_at}, commit ${d.new.git_commit ?? 'unknown'})`,
    `- both measured: ${d.identity.join('; ')}`,
    `- tolerances: tokens ±${d.tolerances.tokens_pct}%, latency ±${d.tolerances.latency_pct}% and ±${d.tolerances.latency_floor_ms} ms, break-even ±${d.tolerances.break_even_pct}%, error rows ±${d.tolerances.errors_abs}; retrieval metrics: new value outside the old run's 95% bootstrap CI`,
    `- ${s.regression} regression(s), ${s.removed} removed, ${s.improvement} improvement(s), ${s.within} within tolerance, ${s.unchanged} unchanged, ${s.added} new`,
    '',
  ];
  for (const n of d.notes) lines.push(`> ${n}`);
  if (d.notes.length) lines.push('');
  const bad = d.rows.filter((r) => r.verdict === 'regression' || r.verdict === 'removed');
  if (bad.length) lines.push('## Regressions', '', ...table(bad), '');
  const sections = [...new Set(d.rows.map((r) => r.section))];
  for (const sec of sections) lines.push(`## ${sec}`, '', ...table(d.rows.filter((r) => r.section === sec)), '');
  return `${lines.join('\n')}`;
}
