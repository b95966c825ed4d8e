/**
 * Process hygiene shared by every place that starts a child (the gate, the proxy adapter, the
 * fixture launcher): memory from /proc, the allow-listed child environment, executable checks
 * that name the OS error, a registry of started process groups that can be ended synchronously
 * (signal handlers, exit), a /proc sweep for tagged processes, and the parent watch a child
 * runs to exit by itself when the harness that started it (or its parent) is gone.
 */
import { accessSync, constants, readFileSync, readdirSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
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
export const BASE_ENV: readonly string[] = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'TMP', 'TEMP', 'TERM',
  // where the Docker engine is (a proxy of the docker cell runs `docker run`): addresses and paths, no credentials
  'DOCKER_HOST', 'DOCKER_CONTEXT', 'DOCKER_CONFIG', 'DOCKER_CERT_PATH', 'DOCKER_TLS_VERIFY'];
/** The project's own non-secret switches (test-only sabotage, debug, threads) pass too. */
export const PROJECT_ENV: readonly string[] = ['MCPGAUGE_PROXY_SABOTAGE', 'MCPGAUGE_DEBUG', 'MCPGAUGE_THREADS'];
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
export function allowedEnv(extra: Record<string, string> = {}, pass: readonly string[] = [], from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(from)) {
    if (v === undefined) continue;
    if (BASE_ENV.includes(k) || PROJECT_ENV.includes(k) || k.startsWith('LC_') || pass.includes(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

/** Values of passed variables whose names look secret (to redact from every artifact). */
export function passedSecrets(pass: readonly string[], from: NodeJS.ProcessEnv = process.env): string[] {
  return pass.filter(secretLikeName).map((k) => from[k] ?? '').filter((v) => v.length >= 4);
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

/**
 * In a process started by the harness (PARENT_ENV = the harness's pid, inherited by whatever that
 * process starts): exit when the harness is gone, checked now and every `intervalMs`. `onOrphan`
 * may close things first; the process exits after it (or after 2 s). No-op without PARENT_ENV.
 */
export function watchParent(onOrphan: () => Promise<void> | void = () => {}, intervalMs = 1000): void {
  const want = Number(process.env[PARENT_ENV]);
  if (!Number.isInteger(want) || want <= 1 || want === process.pid) return;
  const check = () => {
    if (pidAlive(want)) return;
    clearInterval(timer);
    process.stderr.write(`the process that started this one (pid ${want}) is gone: exiting\n`);
    setTimeout(() => process.exit(1), 2000).unref();
    void Promise.resolve()
      .then(onOrphan)
      .catch(() => {})
      .finally(() => process.exit(1));
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  check();
}
