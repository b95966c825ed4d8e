/**
 * Process hygiene shared by every place that starts a child (the gate, the proxy adapter, the
 * fixture launcher, the LAP runner): memory from /proc, the allow-listed child environment,
 * executable checks that name the OS error, children in their own process group (spawnGroup,
 * stopChild, runGroup: the whole group is ended on every exit path), a registry of started
 * process groups that can be ended synchronously (signal handlers, exit), a /proc sweep for
 * tagged processes, and the parent watch a child runs to exit by itself when the harness that
 * started it (or its parent) is gone.
 */
import { accessSync, constants, readFileSync, readdirSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { UserError } from '../types.ts';

export interface ProcessMemory {
  /** resident set size now, MiB */
  rss_mb: number;
  /** peak resident set size (VmHWM), MiB */
  peak_mb: number;
}

export function processMemory(pid: number): ProcessMemory | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (key: string): number | null => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  };
  const rss = kb('VmRSS');
  const hwm = kb('VmHWM');
  if (rss === null) return null;
  return { rss_mb: Math.round((rss / 1024) * 10) / 10, peak_mb: Math.round(((hwm ?? rss) / 1024) * 10) / 10 };
}

// ---------------------------------------------------------------------------------------------
// Environment allow-list

/** Variables a child always gets (when set): the path, the home, the user, the locale, temp folders. */
export const BASE_ENV: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TERM',
  // where the Docker engine is (a proxy of the docker cell runs `docker run`): addresses and paths, no credentials
  'DOCKER_HOST',
  'DOCKER_CONTEXT',
  'DOCKER_CONFIG',
  'DOCKER_CERT_PATH',
  'DOCKER_TLS_VERIFY',
];
/** The project's own non-secret switches (test-only sabotage, debug, threads) pass too. */
export const PROJECT_ENV: readonly string[] = [
  'MCPGAUGE_PROXY_SABOTAGE',
  'MCPGAUGE_PROXY_SABOTAGE_STATE',
  'MCPGAUGE_DEBUG',
  'MCPGAUGE_THREADS',
];
/** Environment variable that asks a child (and what it starts) to exit once this pid is gone (watchParent). */
export const PARENT_ENV = 'MCPGAUGE_PARENT_PID';

/** A variable name that looks like it holds a secret (its value is scrubbed from every artifact). */
export function secretLikeName(name: string): boolean {
  return /TOKEN|KEY|SECRET|PASSW(?:OR)?D|CREDENTIAL|AUTH/i.test(name);
}

/**
 * The environment of a child the harness starts: BASE_ENV, LC_*, PROJECT_ENV and the names in
 * `pass` from `from` (default process.env), then `extra`. Nothing else of the parent's environment.
 */
export function allowedEnv(
  extra: Record<string, string> = {},
  pass: readonly string[] = [],
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(from)) {
    if (v === undefined) continue;
    if (BASE_ENV.includes(k) || PROJECT_ENV.includes(k) || k.startsWith('LC_') || pass.includes(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

/** Values of passed variables whose names look secret (to redact from every artifact). */
export function passedSecrets(pass: readonly string[], from: NodeJS.ProcessEnv = process.env): string[] {
  return pass
    .filter(secretLikeName)
    .map((k) => from[k] ?? '')
    .filter((v) => v.length >= 4);
}

// ---------------------------------------------------------------------------------------------
// Executables

/**
 * Check that `command` can be executed (searched on PATH when it has no slash); throws a UserError
 * (exit 2) naming the OS error (ENOENT, EACCES) and `where`, e.g. "--proxy-cmd".
 */
export function assertExecutable(command: string, where: string, path = process.env.PATH ?? ''): void {
  const fail = (code: string, detail: string): never => {
    throw new UserError(`${where}: cannot start ${JSON.stringify(command)}: ${code} (${detail})`, 2);
  };
  const check = (p: string): string | null => {
    try {
      if (statSync(p).isDirectory()) return 'EACCES';
      accessSync(p, constants.X_OK);
      return null;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code ?? 'ENOENT';
    }
  };
  if (command.includes('/') || isAbsolute(command)) {
    const code = check(command);
    if (code) fail(code, code === 'ENOENT' ? 'no such file' : 'not executable');
    return;
  }
  let seen: string | null = null;
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const code = check(join(dir, command));
    if (code === null) return;
    if (code === 'EACCES') seen = 'EACCES';
  }
  fail(seen ?? 'ENOENT', seen ? 'found on PATH but not executable' : 'not found on PATH');
}

// ---------------------------------------------------------------------------------------------
// Tracked children

interface Tracked {
  child: ChildProcess;
  /** started with detached: true (its own process group) */
  group: boolean;
  label: string;
}

const tracked = new Set<Tracked>();

/** Remember a started child until it exits (killTracked ends what is left). */
export function track(child: ChildProcess, label: string, group = false): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const t: Tracked = { child, group, label };
  tracked.add(t);
  child.once('exit', () => tracked.delete(t));
}

/** Labels and pids of the children still running. */
export function trackedChildren(): { pid: number; label: string }[] {
  return [...tracked].map((t) => ({ pid: t.child.pid!, label: t.label }));
}

/** Synchronously send `signal` to every tracked child (to its whole group when it has one). */
export function killTracked(signal: NodeJS.Signals = 'SIGKILL'): number {
  let n = 0;
  for (const t of tracked) {
    const pid = t.child.pid!;
    try {
      if (t.group) process.kill(-pid, signal);
      else process.kill(pid, signal);
      n++;
    } catch {
      /* gone */
    }
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Process groups

/**
 * Start `command` in its own process group (detached: its pid is the group id), tracked until
 * it exits (killTracked ends the whole group from a signal handler). End it with stopChild.
 */
export function spawnGroup(command: string, args: readonly string[], o: SpawnOptions & { label: string }): ChildProcess {
  const { label, ...opts } = o;
  const child = spawn(command, args, { ...opts, detached: true });
  track(child, label, true);
  return child;
}

/** Send `signal` to the group of `child` (a child not started in its own group: to the child). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    } catch {
      /* gone */
    }
  }
}

export interface StopOptions {
  /** first signal to the group (default SIGTERM) */
  signal?: NodeJS.Signals;
  /** time between the first signal and SIGKILL to the group (default 2000 ms) */
  graceMs?: number;
  /**
   * the MCP stdio shutdown order: end stdin and give the child this long to exit by itself before
   * the first signal (default 0: stdin destroyed, the signal at once)
   */
  stdinGraceMs?: number;
}

/** Send `signal` to the process group led by `pid` (not a group leader: to the process); false when neither exists. */
export function signalPidGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * End a child and everything in its process group: close its stdin (with `stdinGraceMs`: end it
 * and wait that long for the child to exit by itself), `signal` (SIGTERM) to the group, SIGKILL to
 * the group after `graceMs`, and once the child is gone SIGKILL to the group again (grandchildren
 * that ignored the first signal or outlived their parent). Resolves when the child has exited.
 * Safe to call on a child that already exited (its leftovers are still ended). The one home of
 * "stop a child": every launcher (fixture, proxy under test, comply's stdio target) calls it.
 */
export async function stopChild(child: ChildProcess, o: StopOptions = {}): Promise<void> {
  const alive = () => child.pid !== undefined && child.exitCode === null && child.signalCode === null;
  const exited = alive() ? new Promise<void>((r) => child.once('exit', () => r())) : Promise.resolve();
  try {
    if (o.stdinGraceMs) child.stdin?.end();
    else child.stdin?.destroy();
  } catch {
    /* closed */
  }
  if (o.stdinGraceMs && alive()) await Promise.race([exited, new Promise<void>((r) => setTimeout(r, o.stdinGraceMs).unref())]);
  if (alive()) {
    signalGroup(child, o.signal ?? 'SIGTERM');
    const t = setTimeout(() => signalGroup(child, 'SIGKILL'), o.graceMs ?? 2000);
    await exited;
    clearTimeout(t);
  }
  signalGroup(child, 'SIGKILL');
}

// The children of runGroup live in their own group, so a Ctrl-C at the terminal does not reach
// them: while one runs, SIGINT/SIGTERM/SIGHUP and the exit of this process end their groups first
// (then the signal takes its usual course when nothing else handles it).
const running = new Set<ChildProcess>();
const GUARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
function endRunning(): void {
  for (const c of running) signalGroup(c, 'SIGKILL');
}
function onGuardSignal(sig: NodeJS.Signals): void {
  endRunning();
  if (process.listenerCount(sig) > 1) return; // someone else handles this signal and exits
  unguard();
  process.kill(process.pid, sig);
}
function unguard(): void {
  process.off('exit', endRunning);
  for (const sig of GUARDED) process.off(sig, onGuardSignal);
}
/**
 * Guard a long-lived child started with spawnGroup: until the returned release is called, a
 * SIGINT/SIGTERM/SIGHUP or the exit of this process ends its whole group (its own group does not
 * get the terminal's Ctrl-C).
 */
export function holdGroup(child: ChildProcess): () => void {
  return hold(child);
}

function hold(child: ChildProcess): () => void {
  if (running.size === 0) {
    process.on('exit', endRunning);
    for (const sig of GUARDED) process.on(sig, onGuardSignal);
  }
  running.add(child);
  return () => {
    if (running.delete(child) && running.size === 0) unguard();
  };
}

export interface GroupRun {
  /** exited with code 0 before the deadline */
  ok: boolean;
  /** exit code (null: signalled, timed out or never started) */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** the deadline passed: the group was stopped */
  timedOut: boolean;
  /** the OS error when the program could not be started (ENOENT, EACCES) */
  spawnError?: string;
  stdout: string;
  stderr: string;
}

/**
 * Run `command` to its end in its own process group, stdin closed, output collected (each stream
 * capped at `maxBytes`, the tail kept). At the deadline the whole group is stopped (stopChild);
 * when the child exits, whatever it left in its group is killed too. Resolves when the child
 * exited, never rejects; it does not wait for a descendant that left the group to close the pipes.
 * While it runs, a SIGINT/SIGTERM/SIGHUP or the exit of this process kills the group first.
 */
export function runGroup(
  command: string,
  args: readonly string[],
  o: { timeoutMs: number; label: string; env?: NodeJS.ProcessEnv; cwd?: string; maxBytes?: number; graceMs?: number },
): Promise<GroupRun> {
  const max = o.maxBytes ?? 8 * 1024 * 1024;
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let spawnError: string | undefined;
    const child = spawnGroup(command, args, { env: o.env ?? process.env, cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'], label: o.label });
    const release = hold(child);
    const keep = (s: string, d: Buffer) => {
      const t = s + d.toString('utf8');
      return t.length > max ? t.slice(-max) : t;
    };
    child.stdout!.on('data', (d: Buffer) => (stdout = keep(stdout, d)));
    child.stderr!.on('data', (d: Buffer) => (stderr = keep(stderr, d)));
    const timer = setTimeout(
      () => {
        timedOut = true;
        void stopChild(child, { graceMs: o.graceMs ?? 1000 });
      },
      Math.max(1, o.timeoutMs),
    );
    const pipesClosed = Promise.all([child.stdout!, child.stderr!].map((st) => new Promise<void>((r) => st.once('close', () => r()))));
    let finished = false;
    const done = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signalGroup(child, 'SIGKILL'); // leftovers of the group
      release();
      // the pipes close once the group is gone; a descendant that left the group is not waited for
      let wait: NodeJS.Timeout | undefined;
      void Promise.race([pipesClosed, new Promise<void>((r) => (wait = setTimeout(r, 200)))]).then(() => {
        clearTimeout(wait);
        resolve({ ok: !timedOut && !spawnError && exitCode === 0, exitCode, signal, timedOut, spawnError, stdout, stderr });
      });
    };
    child.once('error', (e) => {
      spawnError = (e as NodeJS.ErrnoException).code ?? e.message;
      if (child.pid === undefined) done(null, null);
    });
    child.once('exit', (code, signal) => done(code, signal));
  });
}

/**
 * pids of live (not zombie) processes, other than this one, whose environment holds
 * `NAME=<value starting with prefix>` (`exact`: `NAME=<exactly that value>`). Linux /proc; [] elsewhere.
 */
export function pidsWithEnv(name: string, prefix: string, o: { exact?: boolean } = {}): number[] {
  const needle = `\0${name}=${prefix}${o.exact ? '\0' : ''}`;
  const out: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${e}/environ`, 'latin1');
      if (`\0${env}\0`.includes(needle)) {
        const stat = readFileSync(`/proc/${e}/stat`, 'latin1');
        if (!/\) [ZX] /.test(stat)) out.push(Number(e));
      }
    } catch {
      /* gone or not ours */
    }
  }
  return out;
}

/**
 * Kill (SIGKILL) every process tagged `NAME=prefix…` until none is left (a parent may start a
 * child between two rounds); returns how many were killed.
 */
export function sweepTagged(name: string, prefix: string, rounds = 5): number {
  let n = 0;
  for (let i = 0; i < rounds; i++) {
    const pids = pidsWithEnv(name, prefix);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
        n++;
      } catch {
        /* gone */
      }
    }
    const until = Date.now() + 50;
    while (Date.now() < until) {
      /* let the kernel reap: a synchronous pause (this runs in signal and exit handlers too) */
    }
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Parent watch

/** true while `pid` is a live process (not a zombie) */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return true; // no /proc: kill(0) said alive
  }
}

/** The parent pid of this process when this module loaded (parentGone compares with it). */
const START_PPID = process.ppid;

/**
 * true once the process that started this one is gone: this process was re-parented (its parent
 * pid changed since start-up: the parent died) or the harness named by PARENT_ENV is gone.
 */
export function parentGone(): boolean {
  if (process.ppid !== START_PPID) return true;
  const want = Number(process.env[PARENT_ENV]);
  return Number.isInteger(want) && want > 1 && want !== process.pid && !pidAlive(want);
}

/**
 * In a process the harness started in its own process group (spawnGroup: it leads its group):
 * SIGKILL the whole group, itself included, so what it started (stdio upstreams still loading)
 * ends with it. No-op when this process does not lead its group (Linux /proc; else no-op).
 */
export function endOwnGroup(): void {
  let pgrp = NaN;
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1');
    pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return;
  }
  if (pgrp !== process.pid) return;
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    /* nothing to end */
  }
}

/** How long an orphaned child may take to close things before it exits anyway (watchParent). */
export const ORPHAN_GRACE_MS = 1000;

/**
 * In a process started by the harness (PARENT_ENV = the harness's pid, inherited by whatever that
 * process starts): exit when the harness is gone, checked now and every `intervalMs` (500 ms).
 * `onOrphan` may close things first; the process exits after it, or after ORPHAN_GRACE_MS at the
 * latest, so a child of a `kill -9`ed harness is gone within about 1.5 s. No-op without PARENT_ENV.
 */
export function watchParent(onOrphan: () => Promise<void> | void = () => {}, intervalMs = 500): void {
  const want = Number(process.env[PARENT_ENV]);
  if (!Number.isInteger(want) || want <= 1 || want === process.pid) return;
  const check = () => {
    if (pidAlive(want)) return;
    clearInterval(timer);
    // the harness held the other end of stderr: the note may fail (EPIPE), and that error must not
    // reach an uncaughtException handler that logs to stderr again (a loop that starves the exit)
    const note = () => {
      try {
        process.stderr.on('error', () => {});
        process.stderr.write(`the process that started this one (pid ${want}) is gone: exiting\n`);
      } catch {
        /* nobody reads it */
      }
    };
    // onOrphan runs first and synchronously; only a promise it returns is waited for (ORPHAN_GRACE_MS at most)
    let pending: Promise<void> | void;
    try {
      pending = onOrphan();
    } catch {
      pending = undefined;
    }
    note();
    if (!(pending instanceof Promise)) process.exit(1);
    setTimeout(() => process.exit(1), ORPHAN_GRACE_MS).unref();
    void pending.catch(() => {}).finally(() => process.exit(1));
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  check();
}
