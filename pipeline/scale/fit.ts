/**
 * Growth exponents: least-squares slope of log(y) on log(x) with its R². y ∝ x^slope, so 1 is
 * linear growth, 0 flat. Only points with x > 0 and y > 0 take part; fewer than 2 = no fit.
 */
import type { ScaleFit, ScalePoint } from '../report/index.ts';

export function logLogFit(points: readonly { x: number; y: number }[]): { exponent: number; r2: number; n: number } | null {
  const pts = points.filter((p) => p.x > 0 && p.y > 0 && Number.isFinite(p.x) && Number.isFinite(p.y));
  if (pts.length < 2 || new Set(pts.map((p) => p.x)).size < 2) return null;
  const xs = pts.map((p) => Math.log(p.x));
  const ys = pts.map((p) => Math.log(p.y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  const exponent = sxy / sxx;
  const r2 = syy === 0 ? 1 : (sxy * sxy) / (sxx * syy);
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  return { exponent: round(exponent), r2: round(r2), n: pts.length };
}

/** The figures fitted per system: name, optional tokenizer, value getter. */
interface FittedFigure {
  figure: string;
  perTokenizer: boolean;
  value(p: ScalePoint, tokenizer: string): number | undefined | null;
}

export const FITTED_FIGURES: readonly FittedFigure[] = [
  { figure: 'menu_tokens', perTokenizer: true, value: (p, tk) => p.menu_tokens?.[tk] },
  { figure: 'response_tokens_p50', perTokenizer: true, value: (p, tk) => p.response_tokens?.[tk]?.p50 },
  { figure: 'response_tokens_p95', perTokenizer: true, value: (p, tk) => p.response_tokens?.[tk]?.p95 },
  { figure: 'break_even_calls', perTokenizer: true, value: (p, tk) => p.break_even_calls?.[tk] },
  { figure: 'ready_ms', perTokenizer: false, value: (p) => p.ready_ms },
  { figure: 'latency_p50_ms', perTokenizer: false, value: (p) => p.latency?.p50_ms },
  { figure: 'latency_p99_ms', perTokenizer: false, value: (p) => p.latency?.p99_ms },
  { figure: 'rss_mb', perTokenizer: false, value: (p) => p.rss_mb },
];

/** One fit per (system, figure[, tokenizer]) that has at least two usable points. */
export function fitScale(points: readonly ScalePoint[], systems: readonly string[], tokenizers: readonly string[]): ScaleFit[] {
  const out: ScaleFit[] = [];
  for (const system of systems) {
    const ok = points.filter((p) => p.system === system && p.ok);
    for (const f of FITTED_FIGURES) {
      for (const tk of f.perTokenizer ? tokenizers : [undefined]) {
        const pts = ok.map((p) => ({ x: p.upstream_tools, y: f.value(p, tk ?? '') ?? NaN }));
        const fit = logLogFit(pts);
        if (!fit) continue;
        const row: ScaleFit = { system, figure: f.figure, exponent: fit.exponent, r2: fit.r2, n: fit.n, provenance: 'computed' };
        if (tk) row.tokenizer = tk;
        out.push(row);
      }
    }
  }
  return out;
}
