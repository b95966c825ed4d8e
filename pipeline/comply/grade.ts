/**
 * Grading: score = 70 x required pass rate + 30 x optional pass rate, over evaluated checks
 * only (pass/fail); a pool with nothing evaluated gives its weight to the other. Required =
 * MUST. Coverage = evaluated / applicable; below 50% no grade is given. Security checks are
 * graded on their own (posture), never in the conformance score.
 */
import { CATEGORIES, type CategoryScore, type CheckMeta, type CheckResult, type Grade } from './types.ts';

export const GRADE_BANDS = [
  ['A', 90],
  ['B', 75],
  ['C', 60],
  ['D', 40],
] as const;
export const MIN_COVERAGE = 0.5;
export const GRADE_ORDER = ['F', 'D', 'C', 'B', 'A'] as const;
export type Letter = (typeof GRADE_ORDER)[number];

type R = CheckResult & { meta: CheckMeta };

const applicable = (r: R) => r.status !== 'not_applicable';
const evaluated = (r: R) => r.status === 'pass' || r.status === 'fail';

export function letter(score: number): Letter {
  for (const [g, min] of GRADE_BANDS) if (score >= min) return g;
  return 'F';
}

export function gradeOf(results: readonly R[]): Grade {
  const app = results.filter(applicable);
  const ev = app.filter(evaluated);
  const req = ev.filter((r) => r.meta.severity === 'MUST');
  const opt = ev.filter((r) => r.meta.severity !== 'MUST');
  const rate = (l: R[]) => l.filter((r) => r.status === 'pass').length / l.length;
  let score: number | null = null;
  if (req.length && opt.length) score = 70 * rate(req) + 30 * rate(opt);
  else if (req.length) score = 100 * rate(req);
  else if (opt.length) score = 100 * rate(opt);
  const coverage = app.length ? ev.length / app.length : 0;
  if (score !== null) score = Math.round(score);
  const graded = score !== null && coverage >= MIN_COVERAGE;
  return {
    score: graded ? score : null,
    grade: graded ? letter(score!) : null,
    coverage: Math.round(coverage * 1000) / 1000,
    required: { passed: req.filter((r) => r.status === 'pass').length, evaluated: req.length },
    optional: { passed: opt.filter((r) => r.status === 'pass').length, evaluated: opt.length },
    evaluated: ev.length,
    applicable: app.length,
  };
}

export function categoriesOf(results: readonly R[]): CategoryScore[] {
  return CATEGORIES.map((category) => {
    const l = results.filter((r) => r.meta.category === category);
    return {
      category,
      passed: l.filter((r) => r.status === 'pass').length,
      failed: l.filter((r) => r.status === 'fail').length,
      evaluated: l.filter(evaluated).length,
      applicable: l.filter(applicable).length,
    };
  }).filter((c) => c.applicable > 0);
}

export function gradeRun(results: readonly R[]): { conformance: Grade; security: Grade } {
  return {
    conformance: gradeOf(results.filter((r) => r.meta.category !== 'security')),
    security: gradeOf(results.filter((r) => r.meta.category === 'security')),
  };
}

export function atLeast(g: Letter | null, min: Letter): boolean {
  return g !== null && GRADE_ORDER.indexOf(g) >= GRADE_ORDER.indexOf(min);
}
