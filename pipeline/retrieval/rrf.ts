/**
 * Reciprocal-rank fusion (Cormack, Clarke & Buettcher, SIGIR 2009):
 *
 *   score(d) = sum over rankings r that hold d of  1 / (k + rank_r(d))     (rank 1-based)
 *
 * Ties by tool_id ascending (UTF-16 code unit order). Used by `hybrid_rrf` and `hybrid_embed`.
 */
import { UserError } from '../types.ts';
import type { SearchHit } from './engine.ts';

/** Members search this deep before fusing (a doc outside every member's top DEPTH scores 0). */
export const RRF_DEPTH = 50;

export function checkRrfK(k: unknown, who: string): number {
  if (typeof k !== 'number' || !Number.isFinite(k) || k < 0)
    throw new UserError(`${who}: k must be a finite number >= 0, got ${String(k)}`);
  return k;
}

export function fuseRankings(rankings: readonly (readonly SearchHit[])[], k: number, limit: number): SearchHit[] {
  const score = new Map<string, number>();
  for (const r of rankings) r.forEach((h, i) => score.set(h.tool_id, (score.get(h.tool_id) ?? 0) + 1 / (k + i + 1)));
  return [...score]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, Math.max(0, Math.floor(limit)))
    .map(([tool_id, s]) => ({ tool_id, score: s }));
}

/**
 * Weighted reciprocal-rank fusion: score(d) = sum over rankings r of  w_r / (k + rank_r(d)).
 * Same tie rule as fuseRankings. Used by `hybrid_static` (weights chosen by CV).
 */
export function fuseWeighted(
  rankings: readonly (readonly SearchHit[])[],
  weights: readonly number[],
  k: number,
  limit: number,
): SearchHit[] {
  if (weights.length !== rankings.length) throw new UserError(`fuseWeighted: ${rankings.length} rankings, ${weights.length} weights`);
  const score = new Map<string, number>();
  rankings.forEach((r, ri) => r.forEach((h, i) => score.set(h.tool_id, (score.get(h.tool_id) ?? 0) + weights[ri] / (k + i + 1))));
  return [...score]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, Math.max(0, Math.floor(limit)))
    .map(([tool_id, s]) => ({ tool_id, score: s }));
}
