/**
 * Human output: grade per run (score, cap, failing MUSTs), category bars, failing checks with our
 * summary of each requirement. Text that is not ours stays on its line (`termLine`); the whole
 * output carries no escape sequence or control character (`term`, util/escape.ts).
 */
import type { ComplyReport } from '../types.ts';
import { term, termLine as t } from '../../util/escape.ts';
import { allWarnings, counts, failing, gradeText, poolText, runTitle, severityText, statusLabel } from './common.ts';

function bar(passed: number, evaluated: number, width = 20): string {
  if (!evaluated) return '·'.repeat(width);
  const n = Math.round((passed / evaluated) * width);
  return '█'.repeat(n) + '░'.repeat(width - n);
}

export function renderTerminal(rep: ComplyReport, verbose = false): string {
  const out: string[] = [`mcpgauge comply ${t(rep.target)}`, `era: ${rep.era.detected ?? rep.era.choice} (${t(rep.era.reason)})`, ''];
  for (const r of rep.runs) {
    const c = counts(r);
    out.push(`■ ${t(runTitle(r))}`);
    out.push(`  conformance: ${gradeText(r.conformance)} · ${poolText(r.conformance)}`);
    out.push(`  security posture: ${gradeText(r.security)} (scored separately)`);
    out.push(
      `  checks: ${Object.entries(c)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')}`,
    );
    for (const cat of r.categories)
      out.push(
        `  ${cat.category.padEnd(10)} ${bar(cat.passed, cat.evaluated)} ${cat.passed}/${cat.evaluated}${cat.applicable > cat.evaluated ? ` (${cat.applicable - cat.evaluated} not evaluated)` : ''}`,
      );
    const f = failing(r);
    // a server that never started: its one cause, and no fixes that follow from it
    if (r.startFailure) out.push('', `  root cause: ${t(r.startFailure)}`);
    if (f.length) out.push('', '  failing:');
    for (const x of f) {
      out.push(`  ✗ ${x.id} [${severityText(x.meta)}] ${t(x.detail)}`);
      out.push(`      requirement (our summary): ${x.meta.spec.requirement} ${x.meta.spec.url}`);
      if (!r.startFailure) out.push(`      fix: ${x.meta.fix}`);
    }
    const other = r.results.filter((x) => x.status === 'blocked_by' || x.status === 'not_evaluable');
    if (other.length && !verbose) out.push(`  (${other.length} checks blocked or not evaluable; --verbose lists them)`);
    if (verbose) {
      out.push('', '  all checks:');
      for (const x of r.results)
        out.push(
          `  ${x.status === 'pass' ? '✓' : x.status === 'fail' ? '✗' : '·'} ${x.id.padEnd(40)} ${t(statusLabel(x)).padEnd(34)} ${t(x.detail)}`,
        );
    }
    out.push('');
  }
  out.push(
    `grading: ${rep.grading.rule}${rep.grading.capApplied ? '' : ' [cap off for this run]'}.`,
    `note: ${rep.grading.requirementText}.`,
  );
  const w = allWarnings(rep);
  if (w.length) out.push('warnings:', ...w.map((x) => `  ! ${t(x)}`));
  return term(`${out.join('\n')}\n`);
}
