/** Wording shared by the renderers. */
import type { ComplyReport, Grade, RunReport } from '../types.ts';

export type Result = RunReport['results'][number];

export function gradeText(g: Grade): string {
  const cov = `${Math.round(g.coverage * 100)}% coverage`;
  if (g.grade === null) return g.applicable ? `no grade (${cov}; a grade needs 50%)` : 'no grade (nothing applicable)';
  return `${g.grade} (score ${g.score}, ${cov}; ${capText(g)})`;
}

/** The cap next to the letter: which MUSTs failed and what it did to the letter (also the gate's summary.md and step reason). */
export function capText(g: Pick<Grade, 'failingMust' | 'capApplied' | 'cap' | 'uncapped' | 'grade'>): string {
  const n = g.failingMust.length;
  if (!n) return 'no MUST failed, no cap';
  const which = `${n} failing MUST${n > 1 ? 's' : ''}: ${g.failingMust.slice(0, 6).join(', ')}${n > 6 ? ', …' : ''}`;
  if (!g.capApplied) return `${which}; cap to ${g.cap} not applied (--no-cap)`;
  return g.uncapped !== g.grade ? `${which}; capped at ${g.cap} from ${g.uncapped}` : `${which}; cap ${g.cap}`;
}

/** A check's keyword as graded: the basis is named when it weighs a MUST as SHOULD. */
export function severityText(m: Result['meta']): string {
  return m.severity === 'MUST' && m.basis !== 'direct' ? `MUST via ${m.basis}, weighed as SHOULD` : m.severity;
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
  return x.status === 'blocked_by'
    ? x.code
    : x.status === 'not_evaluable' || x.status === 'not_applicable'
      ? `${x.status}(${x.reason})`
      : x.status;
}

export function allWarnings(rep: ComplyReport): string[] {
  return [...rep.warnings, ...rep.runs.flatMap((r) => r.warnings.map((w) => `[${r.revision}/${r.wire}] ${w}`))];
}
