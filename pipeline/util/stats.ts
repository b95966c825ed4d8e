/** Nearest-rank percentile: sort ascending, rank = ceil(p/100*n) clamped to [1,n]. Empty -> NaN. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)));
  return s[rank - 1];
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  let t = 0;
  for (const v of values) t += v;
  return t / values.length;
}

export interface Distribution {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  min: number;
}

export function distribution(values: readonly number[]): Distribution {
  return {
    n: values.length,
    mean: mean(values),
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: values.length ? values.reduce((a, b) => Math.max(b, a), -Infinity) : NaN,
    min: values.length ? values.reduce((a, b) => Math.min(b, a), Infinity) : NaN,
  };
}

/** Deterministic PRNG (mulberry32) for bootstrap and synthetic corpora. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Wilson score interval at 95 % (z = 1.96) for k successes in n trials:
 *
 *   centre = (p + z²/2n) / (1 + z²/n),   half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n),   p = k/n
 *
 * returned as [centre - half, centre + half], clamped to [0, 1]. Unlike the normal approximation it
 * stays inside [0, 1] and is not degenerate at k = 0 or k = n (5/5 gives [0.566, 1]). n = 0: [0, 1]
 * (nothing was observed). k must be an integer in [0, n].
 */
export function wilson95(k: number, n: number): [number, number] {
  if (!Number.isInteger(k) || !Number.isInteger(n) || n < 0 || k < 0 || k > n)
    throw new RangeError(`wilson95: need integers 0 <= k <= n, got k=${k}, n=${n}`);
  if (n === 0) return [0, 1];
  const z = 1.96;
  const p = k / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n))) / (1 + z2n);
  // at k = n (k = 0) the upper (lower) bound is exactly 1 (0); rounding must not leave 0.9999999
  return [k === 0 ? 0 : Math.max(0, centre - half), k === n ? 1 : Math.min(1, centre + half)];
}
