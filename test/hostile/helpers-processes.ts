/**
 * Helpers of processes.test.ts: a /proc scan for the processes of one test (a tag in their argv
 * or their environment), a sweep for what is left, and the stand-in `python` executables (small
 * sh scripts) that answer like python where the code under test asks and misbehave where the
 * attack is: grandchildren that ignore SIGTERM and keep writing into the venv, a wrapper whose
 * child hangs, a venv whose interpreter is broken or never answers.
 */
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/** environment variable that carries the tag of one test into every process it starts */
export const TAG_VAR = 'MCPGAUGE_HOSTILE_PROC_TAG';

export function newTag(): string {
  return `hostile-proc-${randomBytes(6).toString('hex')}`;
}

/** pids of live (not zombie) processes, other than this one, with `tag` in their argv or environment. */
export function taggedPids(tag: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'latin1');
      if (/\) [ZX] /.test(stat)) continue;
      const text = readFileSync(`/proc/${e}/cmdline`, 'latin1') + '\0' + readFileSync(`/proc/${e}/environ`, 'latin1');
      if (text.includes(tag)) out.push(Number(e));
    } catch {
      /* gone or not ours */
    }
  }
  return out;
}

/** the argv of each pid (for a failure message) */
export function describePids(pids: number[]): string {
  return pids
    .map((p) => {
      try {
        return `${p}: ${readFileSync(`/proc/${p}/cmdline`, 'latin1').replace(/\0/g, ' ').trim().slice(0, 160)}`;
      } catch {
        return `${p}: (gone)`;
      }
    })
    .join('\n');
}

/** SIGKILL whatever still carries the tag (the test's own cleanup, after the assertions). */
export function sweep(tag: string): void {
  for (let i = 0; i < 5; i++) {
    const pids = taggedPids(tag);
    if (pids.length === 0) return;
    for (const p of pids) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves with the value of `p`, or with `timedOut` when `ms` pass first (the promise keeps running). */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | 'timedOut'> {
  let t: NodeJS.Timeout | undefined;
  const r = await Promise.race([p, new Promise<'timedOut'>((res) => (t = setTimeout(() => res('timedOut'), ms)))]);
  clearTimeout(t);
  return r;
}

function script(path: string, body: string): string {
  writeFileSync(path, `#!/bin/sh\n${body}`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * A shell loop named `tag` (its $0, so it shows in argv) that ignores SIGTERM (`ignoreTerm`) and,
 * given `writeInto`, keeps creating a file in that folder (like ensurepip unpacking into a venv).
 */
function loop(tag: string, o: { ignoreTerm?: boolean; writeInto?: string; quiet?: boolean }): string {
  const body = `${o.ignoreTerm ? `trap '' TERM; ` : ''}while :; do ${o.writeInto ? 'mkdir -p "$1/lib" && : > "$1/lib/pip-unpacked"; ' : ''}sleep 0.1; done`;
  return `/bin/sh -c '${body}' ${tag}${o.writeInto ? ` "${o.writeInto}"` : ''}${o.quiet ? ' </dev/null >/dev/null 2>&1' : ''} &`;
}

/**
 * A python3 that builds venvs: it answers the version check (`-c ...`) with 3.12; on
 * `-m venv DIR`, per `venv`:
 * - 'hang': makes DIR/bin, starts two grandchildren that ignore SIGTERM (one detached from the
 *   output pipes and writing into DIR, one holding them) and waits forever;
 * - 'fail': fails the way a full disk does;
 * - 'good': makes a venv whose python is `goodPython` (goodVenvPython).
 */
export function fakeBuilderPython(dir: string, tag: string, venv: 'hang' | 'fail' | 'good', goodPython?: string): string {
  const act = {
    hang: `mkdir -p "$3/bin"\n${loop(tag, { ignoreTerm: true, writeInto: '$3', quiet: true })}\n${loop(tag, { ignoreTerm: true })}\nwait\n`,
    fail: `echo "Error: [Errno 28] No space left on device: '$3'" >&2\nexit 1\n`,
    good: `mkdir -p "$3/bin" && cp '${goodPython}' "$3/bin/python" && exit 0\n`,
  }[venv];
  return script(
    join(dir, `python3-${venv}`),
    `# stand-in python3 (test/hostile/processes.test.ts), tag ${tag}\n` +
      `if [ "$1" = "-c" ]; then echo 3.12; exit 0; fi\n` +
      `if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then\n${act}fi\n` +
      `echo "unexpected: $*" >&2\nexit 1\n`,
  );
}

/** The python of a working venv: `import lap` and pip succeed, `-m lap.cli lint` prints a lap JSON result. */
export function goodVenvPython(dir: string): string {
  return script(
    join(dir, 'good-venv-python'),
    `case "$*" in\n` +
      `  "-c import lap") exit 0 ;;\n` +
      `  "-m pip install"*) exit 0 ;;\n` +
      `  "-m lap.cli lint"*) echo '{"grade":{"letter":"B"},"menu_tokens":900}'; exit 0 ;;\n` +
      `esac\necho "unexpected: $*" >&2\nexit 1\n`,
  );
}

/** A broken interpreter: every command fails the way a python with a damaged stdlib does. */
export const BROKEN_PYTHON_BODY = `echo "Fatal Python error: init_fs_encoding: failed to get the Python codec of the filesystem encoding" >&2\nexit 1\n`;

/** A python that never answers: it starts a child (tagged) and waits for it, like a wrapper (pyenv shim, a launcher script). */
export function hangingPythonBody(tag: string): string {
  return `${loop(tag, {})}\nwait\n`;
}

export function writeScript(path: string, body: string): string {
  return script(path, body);
}
