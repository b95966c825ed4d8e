/**
 * The matrix: selected cells run isolated and in parallel up to `jobs`; the docker cell is probed;
 * results are assembled fail-closed; report, summary and JUnit written. Exit 0 green, 1 a check
 * failed, 2 could not run as asked (thrown as a UserError with exitCode 2: usage, config, output
 * folder, a proxy command that cannot start, a harness error, nothing evaluated).
 *
 * Hygiene: every process the run starts carries MCPGAUGE_GATE_TAG=<run_id>/... and is tracked
 * (util/proc.ts); on any way out (green, red, harness error, SIGINT, SIGTERM, an uncaught error,
 * the run or phase deadline) whatever is left is killed and swept from /proc. A signal or a
 * deadline writes a partial report marked `interrupted`, prints one line and exits 130 / 143 / 2.
 */
import { availableParallelism } from 'node:os';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from '../types.ts';
import type { PinnedProtocol } from '../mcp/protocol.ts';
import type { AdapterOptions, ProxySpec, TransportChoice } from '../adapter/index.ts';
import { chooseProxy, notApplicable } from './proxy.ts';
import { CELLS, type CellDef } from './cells.ts';
import { harnessError, loadGateConfig, selectCells, type GateConfig } from './config.ts';
import { fixtureImage, guardDockerRun, imageMissing, probeDocker } from './docker.ts';
import { ROLES, TAG_ENV, preflightFixture } from './cell-fixtures.ts';
import { gradeYardstick, type YardstickResult } from './yardstick.ts';
import { CELL_PLACEHOLDERS, ROLE_PLACEHOLDERS, WORK_DIRS, runCell } from './cell.ts';
import { assemble, type ExpectedCell } from './assemble.ts';
import { loadBaseline } from './baseline.ts';
import { writeGateOutputs, type GateReport } from './report.ts';
import { CONFIG_STEP_NAMES, NETWORK_STEPS, STEPS, STEP_NAMES, stepsOf } from './steps/index.ts';
import { ensureToxiproxy } from './network/toxiproxy.ts';
import type { CellResult, StepResult } from './types.ts';
import { placeholdersIn, redact, splitCommandLine } from '../adapter/index.ts';
import { allowedEnv, assertExecutable, killTracked, passedSecrets, sweepTagged } from '../util/proc.ts';
import { assertOutputDir, isInputRefusal, readInputText } from '../util/fs.ts';
import { termLine } from '../util/escape.ts';

export interface GateOptions {
  configFile?: string;
  /** subset of the config's cells (ids); default every cell in the config */
  cells?: string[];
  jobs?: number;
  allowFlaky?: boolean;
  /** run each cell N times (no retries) and report each step's pass rate (default 1: one run, the config's retries) */
  repeat?: number;
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
  clientProtocol?: PinnedProtocol;
  /** run the network cells too (`--network`; default: config `network.enabled`) */
  network?: boolean;
  /** grade the fixture itself once per run (default true; needs a "compliance" config block) */
  gradeFixture?: boolean;
  /** environment variables passed to the proxy and fixtures besides the allow-list (--pass-env) */
  passEnv?: string[];
  /** progress lines: phases and one per finished cell (the CLI prints them on stderr) */
  progress?: (line: string) => void;
  /** also a progress line per finished step (--verbose) */
  verbose?: boolean;
  /** install SIGINT/SIGTERM/uncaught-error handlers for the run (default true) */
  handleSignals?: boolean;
  /** a fragment (one cell of a gate spread over CI jobs): a disabled or skipped cell is reported, not refused ("nothing evaluated" is for the merge to judge) */
  allowNothingEvaluated?: boolean;
  /** false: return the report without writing gate-report.json, summary.md, junit.xml (a fragment run writes its own file) */
  writeOutputs?: boolean;
}

export interface GateRun {
  report: GateReport;
  /** a run that returns has a verdict (an interrupted one exits in its handler, a harness error throws) */
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
  const steps: StepResult[] = stepsOf(c).map((s) => ({
    name: s.meta.name,
    order: s.meta.order,
    status,
    reason,
    duration_ms: 0,
    evidence: {},
  }));
  return {
    id: c.id,
    transport: c.transport,
    era: c.era,
    required,
    status,
    reason,
    attempts: 0,
    duration_ms: 0,
    steps,
    metrics: {},
    logs: [],
  };
}

/** `--jobs`: an integer >= 0 (0 = the number of cores, as --help says); absent = the config's `jobs`. */
export function resolveJobs(flag: number | undefined, cfgJobs: number, cores = availableParallelism()): number {
  const v = flag ?? cfgJobs;
  if (!Number.isInteger(v) || v < 0)
    throw harnessError(`--jobs must be an integer >= 0 (0 = number of cores), got ${JSON.stringify(flag)}`);
  return v === 0 ? cores : v;
}

/** `--repeat`: an integer >= 1 (absent = 1). */
export function resolveRepeat(flag: number | undefined): number {
  const v = flag ?? 1;
  if (!Number.isInteger(v) || v < 1 || v > 100)
    throw harnessError(`--repeat must be an integer from 1 to 100 (runs per cell), got ${JSON.stringify(flag)}`);
  return v;
}

/** Default run deadline: preflight + fixture grade + the cells in waves of `jobs`, each attempt up to cell_ms. */
export function runDeadlineMs(cfg: GateConfig, runnable: number, jobs: number, grade: boolean, repeat = 1): number {
  if (cfg.timeouts.run_ms !== undefined) return cfg.timeouts.run_ms;
  const waves = Math.ceil(runnable / Math.max(1, jobs));
  // attempts per cell: 1 + the retries, or exactly N with --repeat N (N > 1: no retries)
  const attempts = repeat > 1 ? repeat : cfg.retries + 1;
  return 2 * Math.max(cfg.timeouts.ready_ms, 30_000) + (grade ? fixtureGradeMs(cfg) : 0) + waves * cfg.timeouts.cell_ms * attempts + 60_000;
}

function fixtureGradeMs(cfg: GateConfig): number {
  return cfg.timeouts.fixture_grade_ms ?? 20 * cfg.timeouts.step_ms;
}

const ROLE_SET = new Set<string>(ROLES);

/**
 * Before anything starts: every placeholder of the command (and of the config template) is one the
 * gate fills, {CONFIG_FILE} comes with a config template, and a literal program can be executed.
 * Each problem is one line, exit 2.
 */
export function checkProxySpec(spec: ProxySpec, env: Record<string, string>): void {
  if (spec.kind !== 'command') return;
  const known = new Set<string>([
    ...CELL_PLACEHOLDERS,
    ...ROLE_PLACEHOLDERS,
    ...(spec.configTemplate !== undefined ? ['CONFIG_FILE'] : []),
  ]);
  const check = (text: string, where: string) => {
    for (const p of placeholdersIn(text)) {
      const [name, role] = p.split(':');
      if (name === 'CONFIG_FILE' && spec.configTemplate === undefined)
        throw harnessError(
          `${where}: {CONFIG_FILE} needs --proxy-config-template FILE (the config the gate fills per cell and writes to {CONFIG_FILE})`,
        );
      // the preset runtime placeholders (adapter/preset-file.ts runtimeValues: {LOOPBACK_GUARD}, {NPM_BIN:pkg}) are resolved at launch
      const runtime = name === 'LOOPBACK_GUARD' ? role === undefined : name === 'NPM_BIN' && role !== undefined;
      const ok =
        runtime || (role === undefined ? known.has(name) : (ROLE_PLACEHOLDERS as readonly string[]).includes(name) && ROLE_SET.has(role));
      if (!ok)
        throw harnessError(
          `${where}: unknown placeholder {${p}} (known: ${[...known].map((k) => `{${k}}`).join(' ')}; roles ${ROLES.join('|')})`,
        );
    }
  };
  check(spec.command, '--proxy-cmd');
  if (spec.configTemplate !== undefined) {
    let text: string;
    try {
      text = readInputText(spec.configTemplate, 'a config template');
    } catch (e) {
      if (isInputRefusal(e)) throw harnessError(e.message);
      throw harnessError(
        `${spec.configTemplate}: cannot read config template (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
    check(text, spec.configTemplate);
  }
  let words: string[];
  try {
    words = splitCommandLine(spec.command);
  } catch (e) {
    throw harnessError(`--proxy-cmd: ${(e as Error).message}`);
  }
  const program = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  if (program === undefined) throw harnessError('--proxy-cmd: no command');
  if (placeholdersIn(program).length === 0) assertExecutable(program === 'node' ? process.execPath : program, '--proxy-cmd', env.PATH);
}

type Phase = 'setup' | 'preflight' | 'fixture-grade' | 'cells' | 'report';

/** What the setup phase decides for the whole run (read-only afterwards). */
interface GateContext {
  o: GateOptions;
  t0: number;
  cfg: GateConfig;
  selected: string[];
  jobs: number;
  repeat: number;
  outDir: string;
  secrets: string[];
  env: Record<string, string>;
  proxy: ReturnType<typeof chooseProxy>;
  baseline: ReturnType<typeof loadBaseline> | null;
  runId: string;
  cells: CellDef[];
  expected: ExpectedCell[];
  grade: boolean;
  say: (line: string) => void;
}

/** What the phases fill in as the run goes (the report and the way out read it at any time). */
interface GateState {
  phase: Phase;
  results: CellResult[];
  fixtureStartMs?: number;
  yardstick?: YardstickResult;
  deadlineMs: number;
  releaseDocker?: () => void;
}

/** The phase deadline timers and the way out installed for one run. */
interface GateExits {
  deadline: (ms: number, what: string) => NodeJS.Timeout;
  /** timers cleared, then `cleanup`, then the handlers removed */
  dispose: (cleanup: () => void) => void;
}

export async function runGate(o: GateOptions = {}): Promise<GateRun> {
  const ctx = setupRun(o);
  const st: GateState = { phase: 'setup', results: [], deadlineMs: 0 };
  const exits = installExits(ctx, st);
  try {
    const runnable = await classifyCells(ctx, st);
    if (runnable.length === 0 && o.allowNothingEvaluated) return finish(ctx, st);
    checkRunnable(ctx, st, runnable);
    st.deadlineMs = runDeadlineMs(ctx.cfg, runnable.length, ctx.jobs, ctx.grade, ctx.repeat);
    exits.deadline(st.deadlineMs, 'the run deadline (timeouts.run_ms)');
    const { cells, jobs, runId, outDir } = ctx;
    ctx.say(
      `run ${runId}: ${runnable.length === cells.length ? `${cells.length} cell(s)` : `${runnable.length} of ${cells.length} cell(s) to run`}, ${jobs} in parallel, deadline ${Math.round(st.deadlineMs / 1000)} s, out ${outDir}`,
    );
    await preflightPhase(ctx, st, exits);
    await fixtureGradePhase(ctx, st, exits);
    await cellsPhase(ctx, st, runnable);
    st.phase = 'report';
    return finish(ctx, st);
  } finally {
    exits.dispose(() => {
      st.releaseDocker?.();
      sweepRun(ctx.runId);
    });
  }
}

/** The setup phase: config, options, environment, the proxy under test, the baseline; each problem one line, exit 2. */
function setupRun(o: GateOptions): GateContext {
  const t0 = performance.now();
  const cfg = loadGateConfig(o.configFile);
  // a fragment runs one cell of a gate (optional or not): whether the gate has a required cell is the merge's to judge
  const selected = selectCells(cfg, o.cells, o.allowNothingEvaluated !== true, o.network ?? cfg.network.enabled);
  for (const name of Object.keys(cfg.steps))
    if (!CONFIG_STEP_NAMES.includes(name))
      throw harnessError(`${cfg.source}: steps.${name}: unknown step (steps: ${CONFIG_STEP_NAMES.join(', ')})`);
  // every step advisory: no step could turn a cell red, so a cell would pass whatever the proxy does
  if (STEP_NAMES.every((n) => cfg.steps[n]?.required === false))
    throw harnessError(
      `${cfg.source}: /steps: every step has "required": false (advisory), so no step could make a cell red; leave at least one step required`,
    );
  const jobs = resolveJobs(o.jobs, cfg.jobs);
  const repeat = resolveRepeat(o.repeat);
  const outDir = resolve(o.outDir ?? 'results/gate');
  // the output folder first: /proc, a file in the way or a read-only mount fail now, in one line
  assertOutputDir(outDir, '--out');
  const passEnv = o.passEnv ?? [];
  for (const n of passEnv) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) throw harnessError(`--pass-env: ${JSON.stringify(n)} is not a variable name`);
    if (process.env[n] === undefined) throw harnessError(`--pass-env ${n}: not set in the gate's environment`);
  }
  // scrubbed from every log and artifact: passed variables whose names look secret, the --api-key value
  const secrets = [...passedSecrets(passEnv), ...(o.apiKey && o.apiKey.length >= 4 ? [o.apiKey] : [])];
  const env = allowedEnv({}, passEnv);
  const proxy = chooseProxy(o, cfg);
  checkProxySpec(proxy.spec, env);
  const baseline = o.baselineFile !== undefined ? loadBaseline(o.baselineFile, cfg.budgets.tokenizer) : null;
  const runId = randomBytes(4).toString('hex');
  const cells = CELLS.filter((c) => selected.includes(c.id));
  const expected: ExpectedCell[] = cells.map((c) => ({ id: c.id, required: cfg.cells[c.id].required, transport: c.transport, era: c.era }));
  const say = (line: string) => o.progress?.(line);
  return {
    o,
    t0,
    cfg,
    selected,
    jobs,
    repeat,
    outDir,
    secrets,
    env,
    proxy,
    baseline,
    runId,
    cells,
    expected,
    grade: o.gradeFixture !== false,
    say,
  };
}

/** The report document of the run so far (fail-closed assembly, the fixture's own grade, timing). */
function buildReport(
  ctx: GateContext,
  st: GateState,
  verdict: GateReport['verdict'],
  exitCode: GateReport['exit_code'],
  allCells: CellResult[],
  extra: Partial<GateReport> = {},
): GateReport {
  const { o, cfg } = ctx;
  const yardstick = st.yardstick;
  const a = assemble(ctx.expected, allCells, o.allowFlaky ?? false);
  if (yardstick?.status === 'fail') {
    a.verdict = 'fail';
    a.failures.push(`fixture-compliance: ${yardstick.reason}`);
  }
  const count = (s: string) => a.cells.filter((c) => c.status === s).length;
  const style = a.cells.find((c) => c.style)?.style;
  const v = verdict === 'interrupted' ? 'interrupted' : a.verdict;
  return {
    schema_version: 1,
    tool: 'mcpgauge gate',
    generated_at: new Date().toISOString(),
    verdict: v,
    exit_code: verdict === 'interrupted' ? exitCode : a.verdict === 'pass' ? 0 : 1,
    run_id: ctx.runId,
    proxy: { description: redact(ctx.proxy.description, ctx.secrets), ...(style ? { style } : {}) },
    config: { file: cfg.source },
    options: {
      jobs: ctx.jobs,
      allow_flaky: o.allowFlaky ?? false,
      cells: ctx.selected,
      baseline: o.baselineFile ?? null,
      client_protocol: o.clientProtocol ?? 'legacy',
      retries: cfg.retries,
      repeat: ctx.repeat,
    },
    // the network cells' own steps after the main ones (summary.md draws them in their own table)
    steps: [...STEPS, ...(ctx.cells.some((c) => c.network) ? NETWORK_STEPS.filter((s) => !STEP_NAMES.includes(s.meta.name)) : [])].map(
      (s) => ({
        order: s.meta.order,
        name: s.meta.name,
        title: s.meta.title,
        optional: s.meta.optional === true,
        needs: [...s.meta.needs],
        required: cfg.steps[s.meta.name]?.required !== false,
      }),
    ),
    cells: a.cells,
    counts: {
      pass: count('pass'),
      fail: count('fail'),
      flaky: count('flaky'),
      skipped: count('skipped'),
      ...(count('not_applicable') ? { not_applicable: count('not_applicable') } : {}),
    },
    failures: a.failures,
    advisories: a.advisories,
    ...(yardstick ? { fixture_compliance: yardstick } : {}),
    ...extra,
    timing: {
      total_ms: Math.round(performance.now() - ctx.t0),
      provenance: 'measured',
      deadline_ms: st.deadlineMs,
      ...(st.fixtureStartMs !== undefined ? { fixture_start_ms: st.fixtureStartMs } : {}),
    },
  };
}

/** Synchronous cleanup: tracked children (and their groups), then every process tagged with this run. */
function sweepRun(runId: string): number {
  const n = killTracked('SIGKILL') + sweepTagged(TAG_ENV, `${runId}/`);
  for (const d of WORK_DIRS) rmSync(d, { recursive: true, force: true });
  WORK_DIRS.clear();
  return n;
}

/** The hard way out: a signal, a deadline or an uncaught error (synchronous from its start): a partial report, one line, exit. */
function installExits(ctx: GateContext, st: GateState): GateExits {
  const { o, cfg, cells, outDir } = ctx;
  let ending = false;
  const end = (reason: string, code: 2 | 130 | 143, signal?: 'SIGINT' | 'SIGTERM'): never => {
    if (ending) process.exit(code);
    ending = true;
    const killed = sweepRun(ctx.runId);
    let where: string;
    try {
      const done = new Set(st.results.map((r) => r.id));
      const unfinished = cells.filter((c) => !done.has(c.id));
      const partial = [
        ...st.results,
        ...unfinished.map((c) => skippedCell(c, cfg.cells[c.id].required, `interrupted: ${reason} before this cell finished`)),
      ];
      const report = buildReport(ctx, st, 'interrupted', code, partial, {
        interrupted: {
          reason,
          phase: st.phase,
          exit_code: code,
          ...(signal ? { signal } : {}),
          unfinished_cells: unfinished.map((c) => c.id),
          killed_processes: killed,
        },
      });
      where = `partial report ${writeGateOutputs(report, outDir).report}`;
    } catch (e) {
      where = `no partial report (${(e as Error).message.split('\n')[0]})`;
    }
    process.stderr.write(
      `${termLine(`mcpgauge gate: interrupted (${reason}) during ${st.phase}; ${killed} process(es) ended; ${where}`)}\n`,
    );
    process.exit(code);
  };
  const onSigint = () => end('SIGINT', 130, 'SIGINT');
  const onSigterm = () => end('SIGTERM', 143, 'SIGTERM');
  const onUncaught = (e: unknown) => end(`harness error: ${String((e as Error)?.message ?? e).split('\n')[0]}`, 2);
  const onExit = () => {
    sweepRun(ctx.runId);
  };
  const handle = o.handleSignals !== false;
  if (handle) {
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
    process.on('uncaughtException', onUncaught);
  }
  process.on('exit', onExit);
  const timers: NodeJS.Timeout[] = [];
  const deadline = (ms: number, what: string) => {
    const t = setTimeout(() => end(`deadline: ${what} exceeded ${ms} ms`, 2), ms);
    t.unref();
    timers.push(t);
    return t;
  };
  const dispose = (cleanup: () => void) => {
    for (const t of timers) clearTimeout(t);
    cleanup();
    process.off('exit', onExit);
    if (handle) {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
      process.off('uncaughtException', onUncaught);
    }
  };
  return { deadline, dispose };
}

/** The selected cells that can run; a disabled, not-applicable or docker-less cell is recorded in st.results. */
async function classifyCells(ctx: GateContext, st: GateState): Promise<CellDef[]> {
  const { cfg, say } = ctx;
  const runnable: CellDef[] = [];
  for (const c of ctx.cells) {
    const required = cfg.cells[c.id].required;
    const na = notApplicable(c.transport, ctx.proxy.fronts);
    if (cfg.cells[c.id].enabled === false) st.results.push(skippedCell(c, required, `skipped: disabled in ${cfg.source}`));
    else if (na !== null) {
      st.results.push(skippedCell(c, required, na, 'not_applicable'));
      say(`${c.id}: ${na}`);
    } else if (c.transport === 'docker') {
      const probe = await probeDocker();
      const missing = probe.ok ? await imageMissing(fixtureImage()) : null;
      if (!probe.ok || missing) {
        // no engine: skipped; an engine without the image: a failure (never a silent skip)
        const reason = probe.ok ? `fail: ${missing}` : `skipped: no Docker engine (${probe.error})`;
        st.results.push(probe.ok ? { ...skippedCell(c, required, reason), status: 'fail' } : skippedCell(c, required, reason));
        say(`${c.id}: ${reason}`);
      } else {
        runnable.push(c);
        // whatever way the run ends (green, red, a signal), no container of this run may survive it
        st.releaseDocker = guardDockerRun(ctx.runId);
      }
    } else if (c.network) {
      // built once into the cache (about a minute); where Go is missing: skipped with the reason
      const built = await ensureToxiproxy();
      if (built.ok) {
        if (built.built_ms !== null) say(`network: toxiproxy built in ${(built.built_ms / 1000).toFixed(1)} s (${built.binary})`);
        runnable.push(c);
      } else {
        st.results.push(skippedCell(c, required, `skipped: ${built.reason}`));
        say(`${c.id}: skipped: ${built.reason}`);
      }
    } else runnable.push(c);
  }
  return runnable;
}

/** nothing would be evaluated, or no required cell can run: not a green run (exit 2, the reasons in one line) */
function checkRunnable(ctx: GateContext, st: GateState, runnable: CellDef[]): void {
  const { cfg, expected } = ctx;
  if (runnable.length === 0)
    throw harnessError(`nothing evaluated: no selected cell can run (${st.results.map((r) => `${r.id} ${r.reason}`).join('; ')})`);
  const requiredIds = expected.filter((e) => e.required).map((e) => e.id);
  if (requiredIds.length && !runnable.some((c) => cfg.cells[c.id].required)) {
    throw harnessError(
      `no required cell can run: ${st.results
        .filter((r) => r.required)
        .map((r) => `${r.id} ${r.reason}`)
        .join('; ')}`,
    );
  }
}

/** The preflight phase: the fixture starts and answers (measured, not judged). */
async function preflightPhase(ctx: GateContext, st: GateState, exits: GateExits): Promise<void> {
  st.phase = 'preflight';
  // a loaded machine may start the fixture slowly: the preflight waits at least 30 s (it measures, it does not judge)
  const preflightMs = Math.max(ctx.cfg.timeouts.ready_ms, 30_000);
  const pt = exits.deadline(2 * preflightMs, 'the preflight phase');
  st.fixtureStartMs = await preflightFixture(preflightMs, `${ctx.runId}/preflight`);
  clearTimeout(pt);
  ctx.say(`preflight: the fixture started and answered in ${st.fixtureStartMs} ms`);
}

/** The fixture-grade phase: once per run, before the cells (so it cannot disturb their timing), the fixture's own grade. */
async function fixtureGradePhase(ctx: GateContext, st: GateState, exits: GateExits): Promise<void> {
  if (!ctx.grade) return;
  st.phase = 'fixture-grade';
  ctx.say('fixture grade: started');
  const pt = exits.deadline(fixtureGradeMs(ctx.cfg), 'the fixture-grade phase (timeouts.fixture_grade_ms)');
  st.yardstick = await gradeYardstick(ctx.cfg, { tag: `${ctx.runId}/yardstick` });
  clearTimeout(pt);
  ctx.say(`fixture compliance: ${st.yardstick.status} (${st.yardstick.reason.slice(0, 160)})`);
}

/** The cells phase: the runnable cells in parallel up to `jobs`; anything escaping a cell is a harness error (exit 2). */
async function cellsPhase(ctx: GateContext, st: GateState, runnable: CellDef[]): Promise<void> {
  const { o, cfg, secrets, say } = ctx;
  st.phase = 'cells';
  say('cells: started');
  let harness: Error | null = null;
  await pool(runnable, ctx.jobs, async (c) => {
    if (harness) return;
    if (o.verbose) say(`${c.id}: started`);
    try {
      const r = await runCell(c, cfg.cells[c.id].required, {
        cfg,
        opts: {
          adapter: ctx.proxy.adapter,
          baseline: ctx.baseline,
          clientProtocol: o.clientProtocol ?? 'legacy',
          upstreams: ctx.proxy.fronts.upstreams,
          fixtureStartMs: st.fixtureStartMs,
          repeat: ctx.repeat,
        },
        spec: ctx.proxy.spec,
        runId: ctx.runId,
        outDir: ctx.outDir,
        env: ctx.env,
        secrets,
        onStep: o.verbose
          ? (cell, s) =>
              say(
                `${cell}: ${String(s.order).padStart(2)} ${s.name} ${s.status}${s.status === 'fail' ? ` (${s.reason.slice(0, 100)})` : ''}`,
              )
          : undefined,
      });
      st.results.push(r);
      const failed = r.steps.find((s) => s.status === 'fail');
      say(
        `${c.id}: ${r.status.toUpperCase()} in ${(r.duration_ms / 1000).toFixed(1)} s${r.attempts > 1 ? ` (${r.attempts} attempts)` : ''}${failed ? ` at ${failed.name}: ${redact(failed.reason, secrets).slice(0, 160)}` : ''}`,
      );
    } catch (e) {
      // anything that escapes a cell is the harness's problem, never a proxy verdict: exit 2 with the reason
      const msg = redact(String((e as Error)?.message ?? e).split('\n')[0], secrets);
      harness =
        e instanceof UserError && e.exitCode === 2
          ? new UserError(redact(e.message, secrets), 2)
          : harnessError(`${c.id}: harness error: ${msg}`);
      say(`${c.id}: harness error: ${msg}`);
    }
  });
  st.releaseDocker?.(); // each docker cell checked and removed its own containers; this catches one that died
  st.releaseDocker = undefined;
  if (harness) throw harness;
  if (!st.results.some((r) => r.attempts > 0)) throw harnessError('nothing evaluated: no cell executed');
}

/** The report phase: the document, and (unless a fragment asked not to) gate-report.json, summary.md, junit.xml. */
function finish(ctx: GateContext, st: GateState): GateRun {
  const report = buildReport(ctx, st, 'pass', 0, st.results);
  const files = ctx.o.writeOutputs === false ? { report: '', summary: '', junit: '' } : writeGateOutputs(report, ctx.outDir);
  return { report, exitCode: report.exit_code === 0 ? 0 : 1, files };
}
