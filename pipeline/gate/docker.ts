/** Docker probe for the docker cell: `docker info` must answer; otherwise the cell is skipped with the probe's error. */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { signalPidGroup } from '../util/proc.ts';

export async function probeDocker(timeoutMs = 10_000): Promise<{ ok: true; version: string } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    let out = '';
    let done = false;
    const finish = (r: { ok: true; version: string } | { ok: false; error: string }) => {
      if (!done) {
        done = true;
        clearTimeout(t);
        resolve(r);
      }
    };
    const child = spawn('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ ok: false, error: `docker info did not answer within ${timeoutMs} ms` });
    }, timeoutMs);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', (e: NodeJS.ErrnoException) =>
      finish({ ok: false, error: e.code === 'ENOENT' ? 'docker: command not found' : `docker: ${e.message}` }),
    );
    child.once('exit', (code) => {
      const text = out.trim().split('\n').slice(-2).join(' | ');
      finish(
        code === 0 && text
          ? { ok: true, version: text }
          : { ok: false, error: `docker info exited with code ${code}: ${text || 'no output'}` },
      );
    });
  });
}

/**
 * The docker cell's engine side (the one home for `docker` commands of the gate): the fixture
 * image, the `docker run` line a proxy uses to start a fixture container, the containers of a
 * run (by label) and `docker kill` from outside.
 */

/** the fixture image the docker cell runs (make fixture-image builds it) */
export const FIXTURE_IMAGE_ENV = 'MCPGAUGE_FIXTURE_IMAGE';
export function fixtureImage(env: NodeJS.ProcessEnv = process.env): string {
  return env[FIXTURE_IMAGE_ENV] || 'mcpfixture:local';
}
/** every container the gate makes a proxy start carries `mcpgauge.run=<run id>` */
export const RUN_LABEL = 'mcpgauge.run';
export const CELL_LABEL = 'mcpgauge.cell';
export const ROLE_LABEL = 'mcpgauge.role';

/**
 * `docker run --rm -i --network none --label mcpgauge.run=<id> [--label …] [-e K=V …] IMAGE
 * /mcpfixture --transport stdio [args]`: the command a proxy runs to start one fixture container.
 */
export function dockerFixtureArgv(o: {
  runId: string;
  labels?: Record<string, string>;
  env?: Record<string, string>;
  image?: string;
  args?: string[];
}): string[] {
  const labels = Object.entries(o.labels ?? {}).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
  const env = Object.entries(o.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  // the engine the gate itself talks to (DOCKER_HOST, e.g. CI's own dockerd socket) also for the proxy's
  // `docker run`: a proxy passes its upstreams only the environment it chooses, a flag reaches them all
  const host = process.env.DOCKER_HOST ? ['--host', process.env.DOCKER_HOST] : [];
  return [
    'docker',
    ...host,
    'run',
    '--rm',
    '-i',
    '--network',
    'none',
    '--label',
    `${RUN_LABEL}=${o.runId}`,
    ...labels,
    ...env,
    o.image ?? fixtureImage(),
    '/mcpfixture',
    '--transport',
    'stdio',
    ...(o.args ?? []),
  ];
}

function docker(args: string[], timeoutMs = 30_000): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile('docker', args, { timeout: timeoutMs, maxBuffer: 8 << 20 }, (e, out, err) => {
      const code = e ? (typeof (e as { code?: unknown }).code === 'number' ? (e as { code: number }).code : -1) : 0;
      resolve({ code, out: String(out), err: String(err || (e && code === -1 ? e.message : '')) });
    });
  });
}

/** `docker image inspect`: null when present, else the one-line reason */
export async function imageMissing(image: string): Promise<string | null> {
  const r = await docker(['image', 'inspect', '--format', '{{.Id}}', image]);
  return r.code === 0
    ? null
    : `the fixture image ${image} is not on this engine (make fixture-image builds it): ${r.err.trim().split('\n').pop()}`;
}

/** ids of the containers (running or not) carrying every label given */
export async function containersWith(labels: Record<string, string>, opts: { running?: boolean } = {}): Promise<string[]> {
  const filters = Object.entries(labels).flatMap(([k, v]) => ['--filter', `label=${k}=${v}`]);
  const r = await docker(['ps', ...(opts.running ? [] : ['-a']), '-q', '--no-trunc', ...filters]);
  if (r.code !== 0) throw new Error(`docker ps failed: ${r.err.trim()}`);
  return r.out
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `docker kill` one container from outside */
/** `docker kill` (SIGKILL), or another signal to the container's main process (`--signal`). */
export async function dockerKill(id: string, signal?: string): Promise<void> {
  const r = await docker(['kill', ...(signal ? ['--signal', signal] : []), id]);
  if (r.code !== 0) throw new Error(`docker kill ${signal ? `--signal ${signal} ` : ''}${id.slice(0, 12)} failed: ${r.err.trim()}`);
}

/** the containers (running or not) carrying every label given, with their engine state (running, exited, removing, created …) */
export async function containerStates(labels: Record<string, string>): Promise<{ id: string; state: string }[]> {
  const filters = Object.entries(labels).flatMap(([k, v]) => ['--filter', `label=${k}=${v}`]);
  const r = await docker(['ps', '-a', '--no-trunc', '--format', '{{.ID}} {{.State}}', ...filters]);
  if (r.code !== 0) throw new Error(`docker ps failed: ${r.err.trim()}`);
  return r.out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p[0])
    .map(([id, state]) => ({ id, state: state ?? '' }));
}

/** a container whose process has ended: with `--rm` the engine removes it by itself, however slowly */
const ENDED = new Set(['exited', 'dead', 'removing']);

export interface ContainerSweep {
  label: string;
  /** containers whose process still lived after the teardown's grace period (a defect of the proxy under test) */
  left: string[];
  /** of those, the ones the gate then removed with docker rm -f */
  removed: string[];
  waited_ms: number;
}

/**
 * After a teardown: wait up to `graceMs` for the containers with these labels to be gone. One
 * whose process still lives (or that was created and never started) after the grace is the
 * proxy's defect: reported as left and removed by force. One whose process has ended is the
 * engine's own `--rm` work, which a loaded engine (vfs storage) can take many seconds over: the
 * sweep waits up to `engineMs` more for those, then removes what remains by force without calling
 * it left.
 */
export async function sweepContainers(labels: Record<string, string>, graceMs = 10_000, engineMs = 60_000): Promise<ContainerSweep> {
  const t0 = Date.now();
  const label = Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const pause = () => new Promise((r) => setTimeout(r, 200));
  let now = await containerStates(labels);
  while (now.length && Date.now() - t0 < graceMs) {
    await pause();
    now = await containerStates(labels);
  }
  const left = now.filter((c) => !ENDED.has(c.state)).map((c) => c.id);
  const removed: string[] = [];
  if (left.length) {
    const r = await docker(['rm', '-f', ...left]);
    if (r.code === 0) removed.push(...left);
  }
  let ending = now.filter((c) => ENDED.has(c.state));
  while (ending.length && Date.now() - t0 < graceMs + engineMs) {
    await pause();
    const ids = new Set((await containerStates(labels)).map((c) => c.id));
    ending = ending.filter((c) => ids.has(c.id));
  }
  if (ending.length) await docker(['rm', '-f', ...ending.map((c) => c.id)]);
  return { label, left: left.map((id) => id.slice(0, 12)), removed: removed.map((id) => id.slice(0, 12)), waited_ms: Date.now() - t0 };
}

/**
 * synchronous last resort (process exit): remove every container of the run, whatever its state,
 * and go on until the engine lists none (a `docker run` killed mid-start can still create one
 * after the first listing; a loaded engine can take seconds over a removal) or `deadlineMs` passes
 */
export function removeRunContainersSync(runId: string, deadlineMs = 60_000): void {
  const t0 = Date.now();
  const nap = new Int32Array(new SharedArrayBuffer(4));
  let quiet = 0;
  while (Date.now() - t0 < deadlineMs) {
    const ps = spawnSync('docker', ['ps', '-aq', '--filter', `label=${RUN_LABEL}=${runId}`], { encoding: 'utf8', timeout: 15_000 });
    const ids = (ps.stdout ?? '').split('\n').filter(Boolean);
    if (ps.status === 0 && !ids.length) {
      // two empty listings 300 ms apart: no client of the run still creating one
      if (++quiet >= 2) return;
    } else quiet = 0;
    if (ids.length) spawnSync('docker', ['rm', '-f', ...ids], { stdio: 'ignore', timeout: 30_000 });
    Atomics.wait(nap, 0, 0, 300);
  }
}

/** pids of the HTTP-served proxies fronting a docker cell right now (their process groups die first on a signal) */
export const DOCKER_CELL_PROXIES = new Set<number>();

/**
 * While a run has a docker cell: on process exit, and on SIGINT/SIGTERM when nothing else in the
 * process handles them, the proxies fronting docker cells are killed (so none starts a new
 * container) and every container of the run is removed; a signal then exits 130 / 143. Returns
 * the release function (called at the end of the run: the final sweep).
 */
export function guardDockerRun(runId: string): () => void {
  const sweep = () => {
    for (const pid of DOCKER_CELL_PROXIES) signalPidGroup(pid, 'SIGKILL');
    removeRunContainersSync(runId);
  };
  const signals: [NodeJS.Signals, number][] = [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ];
  const handlers = signals
    .filter(([sig]) => process.listenerCount(sig) === 0)
    .map(([sig, code]) => {
      const h = () => {
        sweep();
        process.stderr.write(
          `mcpgauge gate: ${sig}: the docker cell's proxies were killed and the run's containers (${RUN_LABEL}=${runId}) removed\n`,
        );
        process.exit(code);
      };
      process.once(sig, h);
      return [sig, h] as const;
    });
  process.once('exit', sweep);
  return () => {
    for (const [sig, h] of handlers) process.off(sig, h);
    process.off('exit', sweep);
    removeRunContainersSync(runId);
  };
}
