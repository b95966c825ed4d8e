/**
 * bench-perf section "scale": the default `--scale 10,100,1000` sweep over `direct` and
 * `reference` (catalog sampled from the frozen npm corpus, tools/list pages of 100, 20 golden
 * queries x 3 runs). Per point: wall time (start to stop, including the interleaved queries of
 * the other system) and the proxy's peak RSS (VmHWM; direct starts no proxy); the sweep's total
 * wall against the 2-minute budget and this process's own peak RSS. Printed, never asserted.
 */
import { resolve } from 'node:path';
import { runScale } from '../../pipeline/scale/sweep.ts';
import { parseSystems } from '../../pipeline/systems/spec.ts';
import { DEFAULT_CORPUS } from '../../pipeline/constants.ts';

const BUDGET_S = 120;
const sizes = (process.env.SCALE_SIZES ?? '10,100,1000').split(',').map(Number);
const t0 = performance.now();
const rep = await runScale({
  sizes,
  systems: parseSystems(['direct', 'reference']),
  catalogFrom: resolve(DEFAULT_CORPUS),
  tokenizers: ['cl100k_base', 'o200k_base'],
});
const wall = (performance.now() - t0) / 1000;
console.log('system     N      tools  ok  wall s  ready ms  lat p50 ms  peak RSS MB  menu tokens');
for (const p of rep.points) {
  console.log(
    `${p.system.padEnd(10)} ${String(p.catalog_size).padStart(5)} ${String(p.upstream_tools).padStart(6)}  ${p.ok ? 'ok' : 'NO'} ${(p.wall_ms / 1000).toFixed(1).padStart(7)} ${String(Math.round(p.ready_ms ?? 0)).padStart(9)} ${String(p.latency?.p50_ms ?? '—').padStart(11)} ${String(p.rss_peak_mb ?? '— (no proxy)').padStart(12)}  ${p.menu_tokens?.cl100k_base ?? '—'}${p.ok ? '' : `  ${p.error}`}`,
  );
}
for (const n of sizes) {
  const d = rep.points.find((p) => p.system === 'direct' && p.catalog_size === n);
  const r = rep.points.find((p) => p.system === 'reference' && p.catalog_size === n);
  if (d?.ready_ms && r?.ready_ms)
    console.log(
      `N=${n}: reference time to ready ${(r.ready_ms / d.ready_ms).toFixed(2)}x direct's; menu ${((r.menu_tokens!.cl100k_base / d.menu_tokens!.cl100k_base) * 100).toFixed(1)}% of direct's`,
    );
}
for (const f of rep.fits.filter((x) => x.tokenizer === undefined || x.tokenizer === 'cl100k_base'))
  console.log(`growth ${f.system} ${f.figure}: exponent ${f.exponent} (R² ${f.r2}, ${f.n} points, computed)`);
console.log(
  `sweep wall ${wall.toFixed(1)} s (budget ${BUDGET_S} s: ${wall <= BUDGET_S ? 'within' : 'OVER'}); this process peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
