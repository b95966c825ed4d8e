/**
 * `gate --repeat N`: a cell run N times in sequence (each run a fresh attempt: its own fixtures,
 * proxy instance, ports and temp folder), its steps combined into one measured pass rate each.
 *
 * A trial is one run of the step: it counts when the step ran (pass or fail), not when it was
 * blocked, skipped or not applicable in that run. Per step: passes / runs, the rate and its Wilson
 * 95 % interval (util/stats.ts). The status rule (`repeatStatus`): never ran → the last run's
 * status (blocked, skipped, not_applicable); every run passed → pass; none passed → fail; the
 * config's `min_pass_rate` for the step not met by the point estimate passes / runs → fail;
 * otherwise flaky. A flaky required step makes its cell flaky, green only with --allow-flaky: so
 * `min_pass_rate` is the floor that --allow-flaky cannot lower.
 */
import { wilson95 } from '../util/stats.ts';
import type { GateConfig } from './config.ts';
import type { StepRate, StepResult, StepStatus } from './types.ts';

/** pass / fail / flaky of a step that ran `runs` times and passed `passes` times (runs >= 1). */
export function repeatStatus(passes: number, runs: number, minPassRate?: number): 'pass' | 'fail' | 'flaky' {
  if (passes === runs) return 'pass';
  if (passes === 0) return 'fail';
  if (minPassRate !== undefined && passes / runs < minPassRate) return 'fail';
  return 'flaky';
}

export function stepRate(passes: number, runs: number, failedRuns: number[]): StepRate {
  const [lo, hi] = wilson95(passes, runs);
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return { passes, runs, rate: runs ? r3(passes / runs) : 0, wilson95: [r3(lo), r3(hi)], failed_runs: failedRuns };
}

/** `k/N [lo, hi]`, as summary.md and junit.xml show a rate. */
export function formatRate(r: StepRate): string {
  return `${r.passes}/${r.runs} [${r.wilson95[0].toFixed(2)}, ${r.wilson95[1].toFixed(2)}]`;
}

/**
 * One result per step out of N runs (runs[i] = the steps of run i + 1, in STEPS order). The
 * combined step keeps the evidence and logs of its first failed run (the defect shown), else of
 * its last run; duration_ms is the mean over the runs in which it ran.
 */
export function combineRuns(runs: readonly (readonly StepResult[])[], steps: GateConfig['steps']): StepResult[] {
  const last = runs[runs.length - 1];
  return last.map((lastStep) => {
    const mine = runs.map((r) => r.find((s) => s.name === lastStep.name)).filter((s): s is StepResult => s !== undefined);
    const ran = mine
      .map((s, i) => ({ s, run: i + 1 }))
      .filter(({ s }) => s.status === 'pass' || s.status === 'fail' || s.status === 'flaky');
    if (ran.length === 0) return { ...lastStep, reason: `${lastStep.reason} (in all ${runs.length} runs)` };
    const passes = ran.filter(({ s }) => s.status === 'pass').length;
    const failed = ran.filter(({ s }) => s.status !== 'pass');
    const rate = stepRate(
      passes,
      ran.length,
      failed.map((f) => f.run),
    );
    const min = steps[lastStep.name]?.min_pass_rate;
    const status: StepStatus = repeatStatus(passes, ran.length, min);
    const shown = failed[0]?.s ?? ran[ran.length - 1].s;
    const notRun = runs.length - ran.length ? `; did not run in ${runs.length - ran.length} run(s)` : '';
    const floor = min !== undefined && status === 'fail' && passes > 0 ? ` below min_pass_rate ${min}` : '';
    const head = `${passes}/${ran.length} runs passed (rate ${rate.rate}, Wilson 95% [${rate.wilson95.join(', ')}])${floor}${notRun}`;
    const reason = failed.length ? `${head}; run ${failed[0].run} failed: ${failed[0].s.reason}` : `${head}; ${shown.reason}`;
    const out: StepResult = {
      name: lastStep.name,
      order: lastStep.order,
      status,
      reason,
      duration_ms: Math.round(ran.reduce((t, { s }) => t + s.duration_ms, 0) / ran.length),
      evidence: shown.evidence,
      rate,
    };
    if (shown.logs) out.logs = shown.logs;
    if (status !== 'pass' && steps[lastStep.name]?.required === false) out.advisory = true;
    return out;
  });
}
