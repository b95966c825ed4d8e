/**
 * The systems stage of `mcpgauge bench --live`: side-by-side systems and the scale sweep, from
 * options the CLI validated (`pipeline/cli/system-flags.ts`). Here, above systems/ and scale/:
 * scale/ sweeps systems, so below them it would be a systems -> scale back arrow.
 */
import { termLine } from '../util/escape.ts';
import type { LiveOptions } from '../live/live-stage.ts';
import type { ScaleReport, SystemBlock } from '../report/index.ts';
import type { SystemSpec } from '../systems/spec.ts';

export interface SystemRunOptions {
  systems?: SystemSpec[];
  scale?: { sizes: number[]; catalogFrom: string; pageSize: number; queryCount: number; pointTimeoutMs: number };
}

/** The stage: side-by-side blocks (when systems were named) and the scale sweep (when sizes were). */
export async function runSystemStages(
  o: SystemRunOptions,
  live: LiveOptions,
  explicitSystems: boolean,
): Promise<{ systems?: SystemBlock[]; scale?: ScaleReport }> {
  const log = live.log ?? (() => {});
  const out: { systems?: SystemBlock[]; scale?: ScaleReport } = {};
  if (o.systems && explicitSystems) {
    const { runSystems } = await import('../systems/live.ts');
    const t = performance.now();
    out.systems = await runSystems(o.systems, live);
    log(`systems: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  if (o.scale && o.systems) {
    const { runScale } = await import('../scale/sweep.ts');
    const t = performance.now();
    const tty = process.stderr.isTTY === true;
    out.scale = await runScale({
      ...o.scale,
      systems: o.systems,
      goldenFile: live.goldenFile,
      corpusFile: live.corpusFile,
      runs: live.runs,
      warmup: live.warmup,
      limit: live.limit,
      tokenizers: live.tokenizers ?? ['cl100k_base', 'o200k_base'],
      timeoutMs: live.timeoutMs,
      apiKey: live.apiKey,
      log: (m) => {
        if (tty) process.stderr.write('\r\x1b[2K');
        log(m);
      },
      progress: tty ? (m) => process.stderr.write(`\r\x1b[2K${termLine(m).slice(0, (process.stderr.columns ?? 100) - 1)}`) : undefined,
    });
    if (tty) process.stderr.write('\r\x1b[2K');
    log(`scale: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  return out;
}
