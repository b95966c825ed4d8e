/**
 * Grading: score = 70 x required pass rate + 30 x optional pass rate, over evaluated checks
 * only (pass/fail); a pool with nothing evaluated gives its weight to the other. Required =
 * a MUST whose basis is direct (a MUST that follows only from JSON-RPC or is inferred is
 * weighed as SHOULD). The letter comes from the score, then the cap: one failing required
 * check caps it at B, two or more at C (`--no-cap` keeps the plain letter). Coverage =
 * evaluated / applicable; below 50% no grade is given. Security checks are graded on their own
 * (posture), never in the conformance score.
 */
import { CATEGORIES, type CategoryScore, type CheckMeta, type CheckResult, type Grade } from '../types.ts';

export const GRADE_BANDS = [
  ['A', 90],
  ['B', 75],
  ['C', 60],
  ['D', 40],
] as const;
export const MIN_COVERAGE = 0.5;
/** How every output labels a check's requirement text. */
export const REQUIREMENT_NOTE = "each check's requirement text is our own summary of the cited spec section, not a quotation";
/** The cap rule, stated the same way in every output. */
export const CAP_RULE = 'any failing MUST caps the letter at B, two or more at C (--no-cap: the plain weighted letter)';
export const GRADE_ORDER = ['F', 'D', 'C', 'B', 'A'] as const;
export type Letter = (typeof GRADE_ORDER)[number];

type R = CheckResult & { meta: CheckMeta };

const applicable = (r: R) => r.status !== 'not_applicable';
const evaluated = (r: R) => r.status === 'pass' || r.status === 'fail';

export function letter(score: number): Letter {
  for (const [g, min] of GRADE_BANDS) if (score >= min) return g;
  return 'F';
}

/** Counts in the required pool and caps the letter: a MUST stated by the MCP text itself. */
export const isRequired = (m: CheckMeta): boolean => m.severity === 'MUST' && (m.basis ?? 'direct') === 'direct';

export function capOf(failingMust: number): 'B' | 'C' | null {
  return failingMust >= 2 ? 'C' : failingMust === 1 ? 'B' : null;
}

function capped(l: Letter, cap: 'B' | 'C' | null): Letter {
  return cap && GRADE_ORDER.indexOf(l) > GRADE_ORDER.indexOf(cap) ? cap : l;
}

export function gradeOf(results: readonly R[], o: { cap?: boolean } = {}): Grade {
  const app = results.filter(applicable);
  const ev = app.filter(evaluated);
  const req = ev.filter((r) => isRequired(r.meta));
  const opt = ev.filter((r) => !isRequired(r.meta));
  const rate = (l: R[]) => l.filter((r) => r.status === 'pass').length / l.length;
  let score: number | null = null;
  if (req.length && opt.length) score = 70 * rate(req) + 30 * rate(opt);
  else if (req.length) score = 100 * rate(req);
  else if (opt.length) score = 100 * rate(opt);
  const coverage = app.length ? ev.length / app.length : 0;
  if (score !== null) score = Math.round(score);
  const graded = score !== null && coverage >= MIN_COVERAGE;
  const failingMust = req.filter((r) => r.status === 'fail').map((r) => r.meta.id);
  const cap = capOf(failingMust.length);
  const capOn = o.cap !== false;
  const plain = graded ? letter(score!) : null;
  return {
    score: graded ? score : null,
    grade: plain && capOn ? capped(plain, cap) : plain,
    uncapped: plain,
    cap,
    // true only when there is a cap and it was applied: never "cap": null with "capApplied": true
    capApplied: capOn && cap !== null,
    failingMust,
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

export function gradeRun(results: readonly R[], o: { cap?: boolean } = {}): { conformance: Grade; security: Grade } {
  return {
    conformance: gradeOf(
      results.filter((r) => r.meta.category !== 'security'),
      o,
    ),
    security: gradeOf(
      results.filter((r) => r.meta.category === 'security'),
      o,
    ),
  };
}

export function atLeast(g: Letter | null, min: Letter): boolean {
  return g !== null && GRADE_ORDER.indexOf(g) >= GRADE_ORDER.indexOf(min);
}
