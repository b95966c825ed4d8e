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
    max: values.length ? values.reduce((a, b) => (b > a ? b : a), -Infinity) : NaN,
    min: values.length ? values.reduce((a, b) => (b < a ? b : a), Infinity) : NaN,
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
