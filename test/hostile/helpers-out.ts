/**
 * Helpers for out-dir.test.ts and input-files.test.ts: run the real CLI with a deadline and an
 * RSS ceiling (VmRSS polled from /proc every 50 ms; the process is killed when it passes the
 * ceiling or the deadline, so an attack that still works fails the test instead of the machine),
 * list a folder's files, and the fast bench flags.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'mcpgauge.mjs');
/** one arm, one tokenizer, one retriever, no result arms, few bootstrap rounds: ~1.5 s */
export const FAST = [
  '--arms',
  'baseline_json',
  '--tokenizers',
  'cl100k_base',
  '--retriever',
  'bm25',
  '--bootstrap',
  '10',
  '--result-fixtures',
  'none',
  '--no-live',
];

export interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** the highest VmRSS seen, MiB */
  maxRssMb: number;
  /** why the helper killed it, if it did */
  killed?: 'timeout' | 'rss';
  ms: number;
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** `node bin/mcpgauge.mjs ...args` (under `umask` if given), killed (SIGKILL) past `timeoutMs` or `rssLimitMb`. */
export function runCli(
  args: string[],
  o: { env?: NodeJS.ProcessEnv; timeoutMs?: number; rssLimitMb?: number; umask?: string } = {},
): Promise<Run> {
  const t0 = Date.now();
  // with a umask: sh sets it and execs node (same pid, so the RSS poll follows it)
  const [cmd, argv] = o.umask
    ? ['/bin/sh', ['-c', `umask ${o.umask}; exec "$0" "$@"`, process.execPath, BIN, ...args]]
    : [process.execPath, [BIN, ...args]];
  const child = spawn(cmd, argv as string[], { env: { ...process.env, ...o.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let maxRssMb = 0;
  let killed: Run['killed'];
  const limit = o.rssLimitMb ?? 1024;
  const poll = setInterval(() => {
    const r = rssMb(child.pid!);
    maxRssMb = Math.max(maxRssMb, r);
    if (r > limit && !killed) {
      killed = 'rss';
      child.kill('SIGKILL');
    }
  }, 50);
  const timer = setTimeout(() => {
    if (!killed) killed = 'timeout';
    child.kill('SIGKILL');
  }, o.timeoutMs ?? 60_000);
  return new Promise((done) => {
    child.on('close', (status, signal) => {
      clearInterval(poll);
      clearTimeout(timer);
      done({ status, signal, stdout, stderr, maxRssMb, killed, ms: Date.now() - t0 });
    });
  });
}

/** The lines of stderr that are mcpgauge's own error line. */
export const errorLines = (r: Run): string[] => r.stderr.split('\n').filter((l) => l.startsWith('mcpgauge:'));

/** Every file under `dir`, relative, sorted (folders are walked, not listed). */
export function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`]))
    .sort();
}

/** file -> contents (base64) of every file under `dir`. */
export function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(filesUnder(dir).map((f) => [f, readFileSync(join(dir, f)).toString('base64')]));
}
