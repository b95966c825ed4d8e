/**
 * The matrix: selected cells run isolated and in parallel up to `jobs`; the docker cell is probed;
 * results are assembled fail-closed; report, summary and JUnit written. Exit 0 green, 1 a check
 * failed, 2 harness error (thrown as a UserError with exitCode 2).
 */
import { availableParallelism } from 'node:os';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from '../types.ts';
import type { AdapterOptions, ProxySpec, TransportChoice } from '../adapter/index.ts';
import { chooseProxy, notApplicable } from './proxy.ts';
import { CELLS, CELL_IDS, type CellDef } from './cells.ts';
import { harnessError, loadGateConfig, type GateConfig } from './config.ts';
import { fixtureImage, guardDockerRun, imageMissing, probeDocker } from './docker.ts';
import { preflightFixture } from './fixtures.ts';
import { gradeYardstick, type YardstickResult } from './yardstick.ts';
import { runCell } from './cell.ts';
import { assemble, type ExpectedCell } from './assemble.ts';
import { loadBaseline } from './baseline.ts';
import { writeGateOutputs, type GateReport } from './report.ts';
import { STEPS, STEP_NAMES } from './steps/index.ts';
import type { CellResult, StepResult } from './types.ts';
import { redact } from '../adapter/index.ts';

export interface GateOptions {
  configFile?: string;
  /** subset of the config's cells (ids); default every cell in the config */
  cells?: string[];
  jobs?: number;
  allowFlaky?: boolean;
  baselineFile?: string;
  outDir?: string;
  /** proxy under test; default the config's proxy */
  proxyCmd?: string;
  proxyConfigTemplate?: string;
  proxyUrl?: string;
  apiKey?: string;
  /** a preset of datasets/presets, the proxy's transport and endpoint, what it fronts (proxy.ts) */
  preset?: string;
  proxyTransport?: TransportChoice;
  proxyEndpoint?: string;
  fronts?: string;
  adapterExplicit?: ReadonlySet<string>;
  adapter?: AdapterOptions;
  clientProtocol?: 'legacy' | '2026-07-28';
  /** grade the fixture itself once per run (default true; needs a "compliance" config block) */
  gradeFixture?: boolean;
  /** progress lines (TTY only; the CLI decides) */
  progress?: (line: string) => void;
  /** false: return the report without writing gate-report.json, summary.md, junit.xml (a fragment run writes its own file) */
  writeOutputs?: boolean;
}

export interface GateRun {
  report: GateReport;
  exitCode: 0 | 1;
  files: { report: string; summary: string; junit: string };
}

/** The proxy under test (proxy.ts: config, --preset, --proxy-cmd, --proxy-url, transport, fronts). */
export function proxySpec(o: GateOptions, cfg: GateConfig): { spec: ProxySpec; description: string } {
  const c = chooseProxy(o, cfg);
  return { spec: c.spec, description: c.description };
}

async function pool<T>(items: readonly T[], jobs: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
}

export function skippedCell(c: CellDef, required: boolean, reason: string, status: 'skipped' | 'not_applicable' = 'skipped'): CellResult {
  const steps: StepResult[] = STEPS.map((s) => ({ name: s.meta.name, order: s.meta.order, status, reason, duration_ms: 0, evidence: {} }));
  return { id: c.id, transport: c.transport, era: c.era, required, status, reason, attempts: 0, duration_ms: 0, steps, metrics: {}, logs: [] };
}

export async function runGate(o: GateOptions = {}): Promise<GateRun> {
  const t0 = performance.now();
  const cfg = loadGateConfig(o.configFile);
  const selected = o.cells ?? Object.keys(cfg.cells);
  for (const id of selected) {
    if (!CELL_IDS.includes(id)) throw harnessError(`--cells: unknown cell ${JSON.stringify(id)} (cells: ${CELL_IDS.join(', ')})`);
    if (!cfg.cells[id]) throw harnessError(`--cells: cell ${JSON.stringify(id)} is not in ${cfg.source}`);
  }
  if (selected.length === 0) throw harnessError('--cells: no cell selected');
  for (const name of Object.keys(cfg.steps)) if (!STEP_NAMES.includes(name)) throw harnessError(`${cfg.source}: steps.${name}: unknown step (steps: ${STEP_NAMES.join(', ')})`);
  const jobs = o.jobs ?? (cfg.jobs > 0 ? cfg.jobs : availableParallelism());
  if (!Number.isInteger(jobs) || jobs < 1) throw harnessError(`--jobs must be an integer >= 1, got ${JSON.stringify(o.jobs)}`);
  const outDir = resolve(o.outDir ?? 'results/gate');
  mkdirSync(outDir, { recursive: true });
  const { spec, description, fronts, adapter } = chooseProxy(o, cfg);
  const baseline = o.baselineFile !== undefined ? loadBaseline(o.baselineFile, cfg.budgets.tokenizer) : null;
  const runId = randomBytes(4).toString('hex');
  const cells = CELLS.filter((c) => selected.includes(c.id));
  const expected: ExpectedCell[] = cells.map((c) => ({ id: c.id, required: cfg.cells[c.id].required, transport: c.transport, era: c.era }));
  const results: CellResult[] = [];
  const progress = o.progress;

  const runnable: CellDef[] = [];
  let releaseDocker: (() => void) | undefined;
  for (const c of cells) {
    const required = cfg.cells[c.id].required;
    const na = notApplicable(c.transport, fronts);
    if (cfg.cells[c.id].enabled === false) results.push(skippedCell(c, required, `skipped: disabled in ${cfg.source}`));
    else if (na !== null) {
      results.push(skippedCell(c, required, na, 'not_applicable'));
      progress?.(`${c.id}: ${na}`);
    } else if (c.transport === 'docker') {
      const probe = await probeDocker();
      const missing = probe.ok ? await imageMissing(fixtureImage()) : null;
      if (!probe.ok || missing) {
        // no engine: skipped; an engine without the image: a failure (never a silent skip)
        const reason = probe.ok ? `fail: ${missing}` : `skipped: no Docker engine (${probe.error})`;
        results.push(probe.ok ? { ...skippedCell(c, required, reason), status: 'fail' } : skippedCell(c, required, reason));
        progress?.(`${c.id}: ${reason}`);
      } else {
        runnable.push(c);
        // whatever way the run ends (green, red, a signal), no container of this run may survive it
        releaseDocker = guardDockerRun(runId);
      }
    } else runnable.push(c);
  }
  let yardstick: YardstickResult | undefined;
  if (runnable.length) {
    await preflightFixture(cfg.timeouts.ready_ms);
    // once per run, before the cells (so it cannot disturb their timing): the fixture's own grade
    if (o.gradeFixture !== false) {
      yardstick = await gradeYardstick(cfg);
      progress?.(`fixture compliance: ${yardstick.status} (${yardstick.reason.slice(0, 160)})`);
    }
  }
  let harness: Error | null = null;
  await pool(runnable, jobs, async (c) => {
    if (harness) return;
    progress?.(`${c.id}: started`);
    try {
      const r = await runCell(c, cfg.cells[c.id].required, {
        cfg,
        opts: { adapter, baseline, clientProtocol: o.clientProtocol ?? 'legacy', upstreams: fronts.upstreams },
        spec,
        runId,
        outDir,
        onStep: (cell, s) => progress?.(`${cell}: ${String(s.order).padStart(2)} ${s.name} ${s.status}${s.status === 'fail' ? ` (${s.reason.slice(0, 100)})` : ''}`),
      });
      results.push(r);
      progress?.(`${c.id}: ${r.status.toUpperCase()} in ${(r.duration_ms / 1000).toFixed(1)} s${r.attempts > 1 ? ` (${r.attempts} attempts)` : ''}`);
    } catch (e) {
      if (e instanceof UserError && e.exitCode === 2) harness = e;
      else progress?.(`${c.id}: died: ${(e as Error).message}`); // no result: assembled as a failure (fail closed)
    }
  });
  releaseDocker?.(); // each docker cell checked and removed its own containers; this catches one that died
  if (harness) throw harness;
  const a = assemble(expected, results, o.allowFlaky ?? false);
  if (yardstick?.status === 'fail') {
    a.verdict = 'fail';
    a.failures.push(`fixture-compliance: ${yardstick.reason}`);
  }
  const count = (s: string) => a.cells.filter((c) => c.status === s).length;
  const style = a.cells.find((c) => c.style)?.style;
  const report: GateReport = {
    schema_version: 1,
    tool: 'mcpgauge gate',
    generated_at: new Date().toISOString(),
    verdict: a.verdict,
    exit_code: a.verdict === 'pass' ? 0 : 1,
    proxy: { description: redact(description, o.apiKey ? [o.apiKey] : []), ...(style ? { style } : {}) },
    config: { file: cfg.source },
    options: { jobs, allow_flaky: o.allowFlaky ?? false, cells: selected, baseline: o.baselineFile ?? null, client_protocol: o.clientProtocol ?? 'legacy', retries: cfg.retries },
    steps: STEPS.map((s) => ({ order: s.meta.order, name: s.meta.name, title: s.meta.title, optional: s.meta.optional === true, needs: [...s.meta.needs], required: cfg.steps[s.meta.name]?.required !== false })),
    cells: a.cells,
    counts: { pass: count('pass'), fail: count('fail'), flaky: count('flaky'), skipped: count('skipped'), ...(count('not_applicable') ? { not_applicable: count('not_applicable') } : {}) },
    failures: a.failures,
    advisories: a.advisories,
    ...(yardstick ? { fixture_compliance: yardstick } : {}),
    timing: { total_ms: Math.round(performance.now() - t0), provenance: 'measured' },
  };
  const files = o.writeOutputs === false ? { report: '', summary: '', junit: '' } : writeGateOutputs(report, outDir);
  return { report, exitCode: report.exit_code, files };
}
