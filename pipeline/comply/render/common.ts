/** Wording shared by the renderers. */
import type { ComplyReport, Grade, RunReport } from '../types.ts';

export type Result = RunReport['results'][number];

export function gradeText(g: Grade): string {
  const cov = `${Math.round(g.coverage * 100)}% coverage`;
  if (g.grade === null) return g.applicable ? `no grade (${cov}; a grade needs 50%)` : 'no grade (nothing applicable)';
  return `${g.grade} (score ${g.score}, ${cov})`;
}

export function poolText(g: Grade): string {
  return `required ${g.required.passed}/${g.required.evaluated} · optional ${g.optional.passed}/${g.optional.evaluated}`;
}

export function runTitle(r: RunReport): string {
  const who = r.serverInfo.name ? `${r.serverInfo.name}${r.serverInfo.version ? ` ${r.serverInfo.version}` : ''}` : 'unnamed server';
  return `${r.revision} over ${r.wire} — ${who}`;
}

export function failing(r: RunReport): Result[] {
  return r.results.filter((x) => x.status === 'fail');
}

export function counts(r: RunReport): Record<string, number> {
  const c: Record<string, number> = {};
  for (const x of r.results) c[x.status] = (c[x.status] ?? 0) + 1;
  return c;
}

export function statusLabel(x: Result): string {
  return x.status === 'blocked_by' ? x.code : x.status === 'not_evaluable' || x.status === 'not_applicable' ? `${x.status}(${x.reason})` : x.status;
}

export function allWarnings(rep: ComplyReport): string[] {
  return [...rep.warnings, ...rep.runs.flatMap((r) => r.warnings.map((w) => `[${r.revision}/${r.wire}] ${w}`))];
}

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
