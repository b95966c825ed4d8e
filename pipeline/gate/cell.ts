/**
 * One cell: start its fixtures and a fresh proxy instance (own ports, own temp folder), run the
 * steps in order (a failure blocks only the steps that need it: steps/index.ts), tear everything
 * down. One retry when a required step failed: a pass on the retry is `flaky`. With `--repeat N`
 * (N > 1) N runs and no retry: each step's pass rate is measured (repeat.ts).
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from '../types.ts';
import {
  freePort,
  launchProxy,
  openProxySession,
  runtimeValues,
  shellLine,
  type PlaceholderValues,
  type ProxySession,
  type ProxySpec,
  type RunningProxy,
} from '../adapter/index.ts';
import { cellSlug, type CellDef } from './cells.ts';
import type { GateConfig } from './config.ts';
import { ROLES, TAG_ENV, startCellFixtures, type CellFixtures } from './cell-fixtures.ts';
import { CappedLog, capAndScrubFile } from '../util/log.ts';
import { PARENT_ENV } from '../util/proc.ts';
import { oneLine } from './calls.ts';
import { stepsOf } from './steps/index.ts';
import { startNetworkFixtures } from './network/fixtures.ts';
import type { CellContext, CellMetrics, CellResult, GateStep, RunOptions, StepResult } from './types.ts';
import { DOCKER_CELL_PROXIES, type ContainerSweep } from './docker.ts';
import { combineRuns, formatRate } from './repeat.ts';

export { MCPGAUGE_BIN } from '../constants.ts';

export interface CellRunContext {
  cfg: GateConfig;
  opts: RunOptions;
  spec: ProxySpec;
  runId: string;
  /** report folder; logs go to <outDir>/logs/<cell> */
  outDir: string;
  /** after each step; `cell` is the cell id, with ` run i/N` under --repeat N */
  onStep?: (cell: string, step: StepResult) => void;
  /** allow-listed environment of the proxy under test (util/proc.ts allowedEnv); the cell adds its tag */
  env: Record<string, string>;
  /** values to scrub from every log besides the cell's API key (--pass-env secrets, --api-key) */
  secrets: readonly string[];
}

/** Placeholders of a cell (the values: placeholderValues); `{NAME:role}` forms exist for FIXTURE_* names. */
export const CELL_PLACEHOLDERS = [
  'PORT',
  'API_KEY',
  'MCPGAUGE',
  'NODE',
  'WORK_DIR',
  'CELL',
  'ERA',
  'CALL_TIMEOUT_MS',
  'SERVERS_JSON',
] as const;
export const ROLE_PLACEHOLDERS = [
  'FIXTURE_NAME',
  'FIXTURE_URL',
  'FIXTURE_CMD',
  'FIXTURE_DOCKER_CMD',
  'FIXTURE_COMMAND',
  'FIXTURE_ARGS_JSON',
  'FIXTURE_TRANSPORT',
] as const;
/** Work folders of cell attempts still in use (removed by the attempt; a signal handler removes what is left). */
export const WORK_DIRS = new Set<string>();

/** Placeholder values of one cell (pipeline/gate/README.md lists them). */
function placeholderValues(
  cell: CellDef,
  fx: CellFixtures,
  cfg: GateConfig,
  workDir: string,
  port: number,
  apiKey: string,
): PlaceholderValues {
  const v: PlaceholderValues = {
    PORT: String(port),
    API_KEY: apiKey,
    ...runtimeValues(), // {MCPGAUGE}, {NODE}, {LOOPBACK_GUARD}
    WORK_DIR: workDir,
    CELL: cell.id,
    ERA: cell.era,
    CALL_TIMEOUT_MS: String(cfg.timeouts.proxy_call_timeout_ms),
    SERVERS_JSON: JSON.stringify(fx.distinct.map((rf) => rf.entry)),
  };
  for (const role of ROLES) {
    const rf = fx.roles[role];
    const perRole: PlaceholderValues = {
      FIXTURE_NAME: rf.name,
      FIXTURE_URL: rf.url ?? '',
      FIXTURE_CMD: rf.argv,
      FIXTURE_DOCKER_CMD: rf.dockerArgv,
      FIXTURE_COMMAND: rf.argv[0] ?? '',
      FIXTURE_ARGS_JSON: JSON.stringify(rf.argv.slice(1)),
      FIXTURE_TRANSPORT:
        cell.transport === 'stdio' || cell.transport === 'docker' ? 'stdio' : cell.transport === 'sse' ? 'sse' : 'streamable-http',
    };
    for (const [k, val] of Object.entries(perRole)) {
      v[`${k}:${role}`] = val;
      if (role === 'main') v[k] = val;
    }
  }
  return v;
}

function lastLines(text: string, n = 8): string[] {
  return text.trim().split('\n').slice(-n);
}

interface Attempt {
  steps: StepResult[];
  metrics: CellMetrics;
  style?: string;
  failed: boolean;
  /** docker cell: filled by the teardown (after this attempt returned) */
  docker: { sweep?: ContainerSweep };
}

/** One step against the cell's deadline, timed; a thrown error fails the step, a harness error (exit 2) propagates. */
async function timedStep(st: GateStep, ctx: CellContext, cellDeadline: number, cellMs: number): Promise<StepResult> {
  const base = { name: st.meta.name, order: st.meta.order };
  const t0 = performance.now();
  let res: StepResult;
  try {
    const left = cellDeadline - Date.now();
    if (left <= 0) throw new Error(`the cell ran out of time (cell_ms ${cellMs})`);
    let timer: NodeJS.Timeout | undefined;
    const out = await Promise.race([
      st.run(ctx),
      new Promise<never>(
        (_, rej) => (timer = setTimeout(() => rej(new Error(`the cell ran out of time (cell_ms ${cellMs}) during this step`)), left)),
      ),
    ]).finally(() => clearTimeout(timer));
    res = { ...base, status: out.status, reason: out.reason, duration_ms: 0, evidence: out.evidence ?? {} };
  } catch (e) {
    // a harness error (e.g. a role mapped onto a fixture that never saw its calls) is never the proxy's fault: exit 2
    if (e instanceof UserError && e.exitCode === 2) throw e;
    res = { ...base, status: 'fail', reason: oneLine((e as Error).message, 500), duration_ms: 0, evidence: {} };
  }
  res.duration_ms = Math.round(performance.now() - t0);
  return res;
}

/** A proxy that crashes or exits during a step fails that step with its exit code and last log lines; returns why later steps are blocked. */
function proxyExitDuring(res: StepResult, proxy: RunningProxy, step: string): string | undefined {
  const exited = proxy.exit();
  if (!exited) return undefined;
  res.status = 'fail';
  res.reason = `the proxy exited (code ${exited.code}, signal ${exited.signal}) during this step${res.reason ? `; step said: ${res.reason}` : ''}`;
  res.evidence = { ...res.evidence, exit: exited, last_log_lines: lastLines(proxy.output()) };
  return `blocked: the proxy exited during the ${step} step`;
}

/** The cell's fixtures stopped; a docker cell's container sweep is logged (and returned for the cell's evidence). */
async function stopFixtures(fixtures: CellFixtures | undefined, log: (line: string) => void): Promise<ContainerSweep | undefined> {
  const sweep = await fixtures?.stop().catch((e) => {
    log(`teardown: ${(e as Error).message}`);
    return undefined;
  });
  if (sweep)
    log(
      `containers (${sweep.label}) after the teardown: ${sweep.left.length ? `${sweep.left.join(', ')} left, removed by the gate` : 'none left'} (${sweep.waited_ms} ms)`,
    );
  return sweep;
}

/** The log files of an attempt, as paths relative to the report folder (each once). */
function attemptLogs(fixtures: CellFixtures, logDir: string, rel: (p: string) => string, gateLog: string, proxyLog: string): string[] {
  // (a network cell's side fixture stands behind three role names: its log once)
  return [
    ...new Set([
      rel(gateLog),
      rel(proxyLog),
      ...fixtures.distinct.map((rf) => rel(rf.log)),
      ...(fixtures.network ? [rel(join(logDir, 'toxiproxy.log'))] : []),
    ]),
  ];
}

/** The context the steps of an attempt run in; sessions it opens are kept for the teardown. */
function cellContext(
  cell: CellDef,
  rc: CellRunContext,
  proxy: RunningProxy,
  fixtures: CellFixtures,
  sessions: ProxySession[],
  metrics: CellMetrics,
  log: (line: string) => void,
): CellContext {
  return {
    cell,
    cfg: rc.cfg,
    opts: rc.opts,
    proxy,
    fixtures,
    runId: rc.runId,
    session: undefined,
    async openSession() {
      const s = await openProxySession(proxy.target, {
        adapter: rc.opts.adapter,
        protocol: rc.opts.clientProtocol,
        timeoutMs: rc.cfg.timeouts.step_ms,
        clientName: 'mcpgauge-gate',
      });
      sessions.push(s);
      return s;
    },
    metrics,
    log,
  };
}

/** An attempt torn down: sessions closed, proxy and fixtures stopped, work folder removed, logs capped and scrubbed. */
async function teardownAttempt(a: {
  sessions: ProxySession[];
  proxy: RunningProxy | undefined;
  fixtures: CellFixtures | undefined;
  docker: Attempt['docker'];
  log: (line: string) => void;
  workDir: string;
  proxySink: CappedLog;
  gateLog: string;
  logDir: string;
  capBytes: number;
  secrets: string[];
}): Promise<void> {
  const { sessions, proxy, fixtures, docker, log, workDir, proxySink, gateLog, logDir, capBytes, secrets } = a;
  await Promise.all(sessions.map((s) => s.close().catch(() => {})));
  await proxy?.stop().catch(() => {});
  if (proxy?.pid !== undefined) DOCKER_CELL_PROXIES.delete(proxy.pid);
  docker.sweep = await stopFixtures(fixtures, log);
  rmSync(workDir, { recursive: true, force: true });
  WORK_DIRS.delete(workDir);
  proxySink.close();
  // files other processes wrote (a stdio fixture's stderr, redirected by its shell): bounded and scrubbed too
  for (const f of [gateLog, ...ROLES.map((r) => join(logDir, `fixture-${r}.log`))]) capAndScrubFile(f, capBytes, secrets);
}

async function runAttempt(cell: CellDef, rc: CellRunContext, attempt: number, label = cell.id): Promise<Attempt> {
  const logDir = join(rc.outDir, 'logs', cellSlug(cell.id), `attempt-${attempt}`);
  mkdirSync(logDir, { recursive: true });
  const rel = (p: string) => relative(rc.outDir, p);
  const workDir = mkdtempSync(join(tmpdir(), 'mcpgauge-gate-'));
  WORK_DIRS.add(workDir);
  const gateLog = join(logDir, 'gate.log');
  const proxyLog = join(logDir, 'proxy.log');
  const apiKey = randomBytes(18).toString('base64url');
  const secrets = [apiKey, ...rc.secrets];
  // bounded and redacted: a proxy that floods its output is a finding, not a full disk
  const proxySink = new CappedLog(proxyLog, rc.cfg.log_cap_bytes, secrets);
  const log = (line: string) => appendFileSync(gateLog, `[${new Date().toISOString()}] ${line}\n`);
  const steps: StepResult[] = [];
  const metrics: CellMetrics = {};
  const sessions: ProxySession[] = [];
  let fixtures: CellFixtures | undefined;
  let proxy: RunningProxy | undefined;
  const docker: Attempt['docker'] = {};
  try {
    // a harness error propagates (exit 2); a network cell's fixture sits behind toxiproxy
    fixtures = await (cell.network ? startNetworkFixtures : startCellFixtures)(cell, rc.cfg, rc.runId, logDir, rc.opts.upstreams === 1);
    const port = await freePort();
    const values = {
      ...runtimeValues(rc.spec.kind === 'command' ? rc.spec.command : undefined),
      ...placeholderValues(cell, fixtures, rc.cfg, workDir, port, apiKey),
    };
    const env = { ...rc.env, [TAG_ENV]: `${rc.runId}/${cell.id}/proxy`, [PARENT_ENV]: String(process.pid) };
    proxy = await launchProxy(rc.spec, { workDir, values, secrets, env, onOutput: (s) => proxySink.write(s) });
    if (cell.transport === 'docker' && proxy.pid !== undefined) DOCKER_CELL_PROXIES.add(proxy.pid);
    log(`proxy: ${proxy.description}`);
    log(
      `fixtures${fixtures.single ? ' (single-upstream cell: one fixture in BACKEND_MODE=roles carries every role)' : ''}: ${fixtures.distinct.map((rf) => `${rf.role}=${rf.url ?? shellLine(rf.argv.slice(-4))}`).join(' ')}`,
    );
    const logs = attemptLogs(fixtures, logDir, rel, gateLog, proxyLog);
    const ctx = cellContext(cell, rc, proxy, fixtures, sessions, metrics, log);
    const cellDeadline = Date.now() + rc.cfg.timeouts.cell_ms;
    // the dependency graph (steps/index.ts): a failed or blocked step blocks only the steps that need it
    const notPassed = new Map<string, string>(); // step -> why its dependents are blocked
    let proxyGone: string | null = null;
    let failed = false;
    let logCutSaid = false;
    for (const st of stepsOf(cell)) {
      const base = { name: st.meta.name, order: st.meta.order };
      const blocker = proxyGone ?? st.meta.needs.map((n) => notPassed.get(n)).find((x) => x !== undefined);
      if (blocker !== undefined) {
        const reason = proxyGone ?? `blocked by ${blocker}`;
        steps.push({ ...base, status: 'blocked', reason, duration_ms: 0, evidence: {} });
        notPassed.set(st.meta.name, blocker);
        // a required step that never ran showed nothing: red, even when what blocked it was an advisory failure
        if (rc.cfg.steps[st.meta.name]?.required !== false) failed = true;
        continue;
      }
      const res = await timedStep(st, ctx, cellDeadline, rc.cfg.timeouts.cell_ms);
      if (st.meta.name === 'ready' && ctx.session) sessions.push(ctx.session);
      const cut = proxySink.cutInfo();
      if (cut && !logCutSaid) {
        logCutSaid = true;
        res.evidence = { ...res.evidence, proxy_log_cut: { file: rel(proxyLog), ...cut } };
        log(`proxy.log reached its cap (${cut.cap_bytes} bytes) during step ${st.meta.name}: head and tail kept`);
      }
      proxyGone = proxyExitDuring(res, proxy, st.meta.name) ?? proxyGone;
      if (res.status === 'fail') {
        res.logs = logs;
        notPassed.set(st.meta.name, `the failed ${st.meta.name} step`);
        if (rc.cfg.steps[st.meta.name]?.required === false) res.advisory = true;
        else failed = true;
      } else if (res.status === 'skipped') {
        // skipped: nothing was shown, so a step that needs it cannot rest on it (not_applicable
        // does not block: e.g. kill is the reconnect check of a proxy that cannot front the crash fixture)
        notPassed.set(st.meta.name, `the ${st.meta.name} step (${res.status})`);
      }
      log(`step ${st.meta.order} ${st.meta.name}: ${res.status}${res.advisory ? ' (advisory)' : ''} (${res.duration_ms} ms) ${res.reason}`);
      steps.push(res);
      rc.onStep?.(label, res);
    }
    return { steps, metrics, style: ctx.session?.style, failed, docker };
  } finally {
    await teardownAttempt({
      sessions,
      proxy,
      fixtures,
      docker,
      log,
      workDir,
      proxySink,
      gateLog,
      logDir,
      capBytes: rc.cfg.log_cap_bytes,
      secrets,
    });
  }
}

/** Run a cell with the retry policy; never throws for a product failure (a harness error does). */
export async function runCell(cell: CellDef, required: boolean, rc: CellRunContext): Promise<CellResult> {
  if ((rc.opts.repeat ?? 1) > 1) return runRepeated(cell, required, rc, rc.opts.repeat!);
  const t0 = performance.now();
  const first = await runAttempt(cell, rc, 1);
  let last = first;
  let attempts = 1;
  const sweeps = [first.docker];
  while (last.failed && attempts <= rc.cfg.retries) {
    attempts++;
    last = await runAttempt(cell, rc, attempts);
    sweeps.push(last.docker);
  }
  const slug = cellSlug(cell.id);
  const logs = Array.from({ length: attempts }, (_, i) => [
    `logs/${slug}/attempt-${i + 1}/gate.log`,
    `logs/${slug}/attempt-${i + 1}/proxy.log`,
  ]).flat();
  // what makes a cell red: a failed required step, else a required step that did not run (blocked
  // by a failed advisory step, or by the proxy exiting during one): an advisory failure waives only itself
  const redSteps = (a: Attempt) => {
    const failed = a.steps.filter((s) => s.status === 'fail' && !s.advisory);
    return failed.length ? failed : a.steps.filter((s) => s.status === 'blocked' && rc.cfg.steps[s.name]?.required !== false);
  };
  const failedSteps = redSteps(last);
  let status: CellResult['status'];
  let reason: string;
  if (failedSteps.length) {
    status = 'fail';
    reason =
      failedSteps[0].status === 'blocked'
        ? `${failedSteps.length} required step(s) did not run: ${failedSteps.map((s) => s.name).join(', ')} (${failedSteps[0].reason})`
        : failedSteps.map((s) => `${s.name}: ${s.reason}`).join(' | ');
  } else if (attempts > 1) {
    status = 'flaky';
    const firstFails = redSteps(first);
    reason = `passed on attempt ${attempts} of ${rc.cfg.retries + 1}; attempt 1 failed at ${firstFails.map((s) => `${s.name}: ${s.reason}`).join(' | ')}`;
    for (const s of last.steps) {
      const before = first.steps.find((x) => x.name === s.name);
      if (before?.status === 'fail' && !before.advisory && s.status === 'pass') {
        s.status = 'flaky';
        s.reason = `failed on attempt 1 (${before.reason}), passed on attempt ${attempts}: ${s.reason}`;
      }
    }
  } else {
    status = 'pass';
    reason = `${last.steps.filter((s) => s.status === 'pass').length} steps passed`;
  }
  return cellResult(cell, required, { status, reason, attempts, t0, steps: last.steps, last, logs, sweeps: sweeps.map((d) => d.sweep) });
}

/**
 * A cell's result: the teardown's container check (docker cells) folded into its status and
 * reason, then the fields every cell result carries. One builder for single and repeated runs.
 */
function cellResult(
  cell: CellDef,
  required: boolean,
  o: {
    status: CellResult['status'];
    reason: string;
    attempts: number;
    t0: number;
    steps: StepResult[];
    last: Attempt;
    logs: string[];
    sweeps: Parameters<typeof dockerCheck>[0];
  },
): CellResult {
  let { status, reason } = o;
  const containers = dockerCheck(o.sweeps);
  if (containers?.left.length) {
    status = 'fail';
    reason = `${containers.left.length} container(s) labelled ${containers.label} still existed after the teardown (removed by the gate: ${containers.left.join(', ')}); ${reason}`;
  } else if (containers) reason = `${reason}; no container labelled ${containers.label} left after the teardown`;
  return {
    id: cell.id,
    transport: cell.transport,
    era: cell.era,
    required,
    status,
    reason,
    attempts: o.attempts,
    duration_ms: Math.round(performance.now() - o.t0),
    steps: o.steps,
    metrics: o.last.metrics,
    logs: o.logs,
    ...(o.last.style ? { style: o.last.style } : {}),
    ...(containers ? { containers } : {}),
  };
}

/**
 * `--repeat N` (N > 1): N attempts in sequence, no retries (the rate is what is measured), the
 * steps combined into pass rates (repeat.ts). The cell: fail on a failed required step (none of its
 * runs passed, or below its min_pass_rate) or a required step that never ran; else flaky on a
 * flaky required step; else pass.
 */
async function runRepeated(cell: CellDef, required: boolean, rc: CellRunContext, n: number): Promise<CellResult> {
  const t0 = performance.now();
  const runs: Attempt[] = [];
  for (let i = 1; i <= n; i++) runs.push(await runAttempt(cell, rc, i, `${cell.id} run ${i}/${n}`));
  const last = runs[runs.length - 1];
  const steps = combineRuns(
    runs.map((r) => r.steps),
    rc.cfg.steps,
  );
  const slug = cellSlug(cell.id);
  const logs = runs.flatMap((_, i) => [`logs/${slug}/attempt-${i + 1}/gate.log`, `logs/${slug}/attempt-${i + 1}/proxy.log`]);
  const isRequired = (s: StepResult) => rc.cfg.steps[s.name]?.required !== false;
  const failed = steps.filter((s) => s.status === 'fail' && !s.advisory);
  const neverRan = steps.filter((s) => s.status === 'blocked' && isRequired(s));
  const flaky = steps.filter((s) => s.status === 'flaky' && !s.advisory);
  let status: CellResult['status'];
  let reason: string;
  if (failed.length) {
    status = 'fail';
    reason = failed.map((s) => `${s.name}: ${s.reason}`).join(' | ');
  } else if (neverRan.length) {
    status = 'fail';
    reason = `${neverRan.length} required step(s) did not run: ${neverRan.map((s) => s.name).join(', ')} (${neverRan[0].reason})`;
  } else if (flaky.length) {
    status = 'flaky';
    reason = `flaky over ${n} runs: ${flaky.map((s) => `${s.name} ${formatRate(s.rate!)}`).join(', ')}`;
  } else {
    status = 'pass';
    reason = `${steps.filter((s) => s.status === 'pass').length} steps passed in all of ${n} runs`;
  }
  return cellResult(cell, required, { status, reason, attempts: n, t0, steps, last, logs, sweeps: runs.map((d) => d.docker.sweep) });
}

/** the docker cell's container check over every attempt (undefined for other cells) */
function dockerCheck(sweeps: (ContainerSweep | undefined)[]): CellResult['containers'] {
  const got = sweeps.filter((s): s is ContainerSweep => s !== undefined);
  if (!got.length) return undefined;
  return {
    label: got[0].label.split(',')[0],
    checked_attempts: got.length,
    left: got.flatMap((s) => s.left),
    removed: got.flatMap((s) => s.removed),
  };
}
