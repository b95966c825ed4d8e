/**
 * Paired comparison of two retrievers on the same golden queries: the mean per-query difference
 * of a metric (a - b) with a 95% percentile-bootstrap interval over queries (the same resampling
 * as metrics.ts bootstrapMeans, applied to the differences), plus the plain test the issue asks
 * for: is the difference larger than the half-width of a's own 95% CI?
 */
import { UserError } from '../types.ts';
import { bootstrapMeans } from './metrics.ts';
import { mean } from '../util/stats.ts';

export interface PairedDelta {
  delta: number;
  ci95: [number, number];
  /** half-width of a's own CI on the metric, (hi - lo) / 2 */
  a_ci_half_width: number;
  beats_by_more_than_half_width: boolean;
  paired_ci_excludes_zero: boolean;
  n: number;
}

export function pairedDelta(a: number[], b: number[], aCi: [number, number], bootstrap: { iterations: number; seed: number }): PairedDelta {
  if (a.length !== b.length || a.length === 0)
    throw new UserError(`pairedDelta: need two equal, non-empty per-query columns (got ${a.length} and ${b.length})`);
  const d = a.map((x, i) => x - b[i]);
  const [ci] = bootstrapMeans([d], bootstrap.iterations, bootstrap.seed);
  const delta = mean(d);
  const half = (aCi[1] - aCi[0]) / 2;
  return {
    delta,
    ci95: ci,
    a_ci_half_width: half,
    beats_by_more_than_half_width: delta > half,
    paired_ci_excludes_zero: ci[0] > 0 || ci[1] < 0,
    n: d.length,
  };
}
