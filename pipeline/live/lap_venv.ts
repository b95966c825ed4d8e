/**
 * The private Python venv that runs the pinned LAP (`lap-score[mcp]==LAP_SCORE_VERSION`, the `lap`
 * CLI) for the live stage: `.cache/venvs/lap-score-<version>/`, built once.
 *
 * - Atomic: the venv is built in a sibling temp folder (`.lap-score-<v>.tmp-<pid>-<rand>`), the
 *   tokenizer file is seeded, a READY marker is written last, then the folder is renamed into
 *   place. A folder without READY (a killed build) is never taken as ready: it is removed and
 *   rebuilt. The venv is run as `<dir>/bin/python -m lap.cli` (console scripts carry the temp
 *   folder's path in their shebang; `python -m` does not care where the folder lives).
 * - Concurrent runs: a lock file (`.lap-score-<v>.lock`, the builder's pid) makes the others wait
 *   for READY instead of building twice; a lock whose pid is gone is taken over. Correctness does
 *   not rest on the lock: rename onto an existing venv fails and the loser discards its copy.
 * - Offline tokens: LAP counts with tiktoken's cl100k_base, which tiktoken downloads on first use
 *   (not a reachable registry). The same ranks ship in the npm `tiktoken` package; they are
 *   written in tiktoken's cache format into `<dir>/tiktoken-cache/` and checked against the sha256
 *   that tiktoken itself expects (`TIKTOKEN_CACHE_DIR` points there when lap runs).
 * - A venv with READY must answer a smoke command (`python -c "import lap"`, SMOKE_TIMEOUT_MS)
 *   before it is used; one that does not (a broken or hung interpreter, a package gone) is
 *   removed and rebuilt once; when the rebuild fails too, the reason names both.
 * - Every step (the version check, `python -m venv`, pip, the smoke command) runs in its own
 *   process group (util/proc.ts runGroup): at the deadline the whole tree is stopped (ensurepip,
 *   pip's children, what a python wrapper started), so nothing writes into the temp folder after
 *   it is removed. Temp folders of builds whose process is gone are removed by the next build.
 * - The python that builds the venv: `python` option, else $MCPGAUGE_LAP_PYTHON, else python3 on PATH.
 * - Never throws: every problem is `{ok: false, reason}` naming what was missing.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { CACHE_ROOT, REPO_ROOT } from '../constants.ts';
import { pidAlive, runGroup } from '../util/proc.ts';
import { redactText } from '../util/redact.ts';
import { heartbeat } from '../util/heartbeat.ts';

/** The one pinned LAP version (PyPI `lap-score`); `[mcp]` adds fastmcp for `--mcp-url`. */
export const LAP_SCORE_VERSION = '0.8.0';
export const LAP_SCORE_REQUIREMENT = `lap-score[mcp]==${LAP_SCORE_VERSION}`;
/** Environment switch: `off` (= --no-lap), `offline` (use a built venv, never install), `auto` (default). */
export const LAP_ENV = 'MCPGAUGE_LAP';
/** Environment variable naming the python that builds the venv (default: python3 on PATH). */
export const LAP_PYTHON_ENV = 'MCPGAUGE_LAP_PYTHON';
export const DEFAULT_VENV_ROOT = join(CACHE_ROOT, 'venvs');
const READY = 'READY.json';
/** tiktoken's cache key is sha1 of this URL; the content hash is the one tiktoken checks */
const CL100K_URL = 'https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken';
const CL100K_SHA256 = '223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7';

export interface LapVenv {
  dir: string;
  python: string;
  /** argv prefix that runs the `lap` CLI */
  argv: string[];
  tiktokenCache: string;
  version: string;
}

export interface EnsureVenvOptions {
  /** default <repo>/.cache/venvs */
  root?: string;
  /** never install; use the venv only when it is already built */
  offline?: boolean;
  /** python executable that builds the venv (default $MCPGAUGE_LAP_PYTHON, else python3 from PATH) */
  python?: string;
  log?: (msg: string) => void;
  /** environment of `python -m venv` and pip (default process.env: the user's pip configuration) */
  env?: NodeJS.ProcessEnv;
  /** deadline of the whole build (venv + pip), default 300 s */
  timeoutMs?: number;
  /** deadline of the smoke command a built venv must answer before it is used (default SMOKE_TIMEOUT_MS) */
  smokeTimeoutMs?: number;
}

export type EnsureVenvResult = ({ ok: true; built: boolean } & LapVenv) | { ok: false; reason: string };

/** Finds an executable named `name` on PATH (null when absent). */
export function findOnPath(name: string, pathVar = process.env.PATH ?? ''): string | null {
  for (const d of pathVar.split(delimiter)) {
    if (!d) continue;
    const p = join(d, name);
    try {
      if (statSync(p).isFile()) {
        accessSync(p, constants.X_OK);
        return p;
      }
    } catch {
      /* not here */
    }
  }
  return null;
}

export function lapVenvDir(root = DEFAULT_VENV_ROOT): string {
  return join(root, `lap-score-${LAP_SCORE_VERSION}`);
}

function venvOf(dir: string): LapVenv {
  const python = join(dir, 'bin', 'python');
  return {
    dir,
    python,
    argv: [python, '-m', 'lap.cli'],
    tiktokenCache: join(dir, 'tiktoken-cache'),
    version: `lap-score ${LAP_SCORE_VERSION}`,
  };
}

/** Ready = READY marker for this requirement + the venv's python + the tokenizer file. */
export function venvReady(dir: string): boolean {
  try {
    const m = JSON.parse(readFileSync(join(dir, READY), 'utf8')) as { requirement?: string };
    const v = venvOf(dir);
    return m.requirement === LAP_SCORE_REQUIREMENT && existsSync(v.python) && existsSync(join(v.tiktokenCache, sha1(CL100K_URL)));
  } catch {
    return false;
  }
}

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const oneLine = (s: string) => s.trim().split('\n').filter(Boolean).slice(-1)[0] ?? '';

/**
 * Run one step of the build in its own process group (util/proc.ts runGroup): at the deadline the
 * whole group (pip, ensurepip, whatever a python wrapper started) is stopped, and whatever the
 * step left in its group when it exited is killed. `code`: the OS error, `timeout after N ms`,
 * the signal, or the exit code.
 */
async function run(
  cmd: string,
  args: string[],
  timeoutMs: number,
  env?: NodeJS.ProcessEnv,
): Promise<{ ok: boolean; out: string; err: string; code: string }> {
  const r = await runGroup(cmd, args, { timeoutMs, env: env ?? process.env, label: `lap venv: ${cmd} ${args.slice(0, 2).join(' ')}` });
  const code = r.spawnError ?? (r.timedOut ? `timeout after ${timeoutMs} ms` : (r.signal ?? String(r.exitCode)));
  return { ok: r.ok, out: r.stdout, err: r.stderr, code };
}

/** The smoke command a ready venv must answer (within SMOKE_TIMEOUT_MS) before it is used. */
export const SMOKE_ARGS: readonly string[] = ['-c', 'import lap'];
export const SMOKE_TIMEOUT_MS = 20_000;

/** null when the venv's python answers the smoke command, else why not (one line). */
async function smoke(dir: string, timeoutMs: number): Promise<string | null> {
  const r = await run(venvOf(dir).python, [...SMOKE_ARGS], timeoutMs);
  return r.ok ? null : redactText(oneLine(r.err)) || r.code;
}

/** the READY marker's text (tells one build from the next), '' when absent */
function readyStamp(dir: string): string {
  try {
    return readFileSync(join(dir, READY), 'utf8');
  } catch {
    return '';
  }
}

/** Remove the temp folders of builds whose process is gone (a build killed half-way leaves one). */
function removeDeadTemps(root: string): void {
  const prefix = `.lap-score-${LAP_SCORE_VERSION}.tmp-`;
  for (const f of readdirSync(root)) {
    if (!f.startsWith(prefix)) continue;
    const pid = Number(f.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !pidAlive(pid)) rmSync(join(root, f), { recursive: true, force: true });
  }
}

/** cl100k_base ranks from the npm tiktoken package, in tiktoken's `.tiktoken` text form. */
export function cl100kTiktokenFile(): Buffer {
  const req = createRequire(join(REPO_ROOT, 'package.json'));
  const enc = req('tiktoken/encoders/cl100k_base.json') as { bpe_ranks: string };
  const lines: string[] = [];
  // each line of bpe_ranks: "<label> <first rank> <base64 token> <base64 token> ..."
  for (const line of enc.bpe_ranks.split('\n')) {
    const w = line.split(' ');
    if (w.length < 3) continue;
    let rank = Number(w[1]);
    for (const tok of w.slice(2)) lines.push(`${tok} ${rank++}`);
  }
  const data = Buffer.from(lines.join('\n') + '\n', 'utf8');
  const got = createHash('sha256').update(data).digest('hex');
  if (got !== CL100K_SHA256)
    throw new Error(`cl100k_base ranks from npm tiktoken hash to ${got.slice(0, 12)}…, tiktoken expects ${CL100K_SHA256.slice(0, 12)}…`);
  return data;
}

/** Take the build lock, or wait while a live builder holds it. 'ready' when the venv became ready (`isReady`) meanwhile. */
async function lock(
  path: string,
  isReady: () => boolean,
  deadline: number,
  log: (m: string) => void,
): Promise<'locked' | 'ready' | 'timeout'> {
  let said = false;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return 'locked';
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (isReady()) return 'ready';
    let holder = NaN;
    try {
      holder = Number(readFileSync(path, 'utf8'));
    } catch {
      continue; // released between our two looks
    }
    if (!Number.isInteger(holder) || holder <= 0 || !pidAlive(holder)) {
      // a builder that died (or a half-written lock older than a few seconds) leaves a stale lock
      let age = 0;
      try {
        age = Date.now() - statSync(path).mtimeMs;
      } catch {
        continue;
      }
      if ((Number.isInteger(holder) && holder > 0) || age > 5000) rmSync(path, { force: true });
    } else if (!said) {
      log(`live: LAP venv: waiting for the build by pid ${holder}`);
      said = true;
    }
    if (Date.now() > deadline) return 'timeout';
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Asks `python` for its version and whether it has venv and ensurepip; fails (with the skip reason) below Python 3.10. */
async function pythonVersion(python: string, timeoutMs: number): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  const ver = await run(python, ['-c', 'import sys, venv, ensurepip; print("%d.%d" % sys.version_info[:2])'], timeoutMs);
  if (!ver.ok) {
    const why = oneLine(ver.err);
    return {
      ok: false,
      reason: `skipped: ${python} cannot make a venv with pip (${why.includes('ensurepip') ? 'no ensurepip; Debian/Ubuntu: apt-get install python3-venv' : why || ver.code})`,
    };
  }
  const [maj, min] = ver.out.trim().split('.').map(Number);
  if (maj < 3 || (maj === 3 && min < 10))
    return { ok: false, reason: `skipped: ${python} is Python ${ver.out.trim()}; ${LAP_SCORE_REQUIREMENT} needs >= 3.10` };
  return { ok: true, version: ver.out.trim() };
}

/** Builds a complete venv in `tmp` (venv, pip install, tiktoken cache, READY stamp); returns the skip reason, or null when built. */
async function buildVenvAt(
  python: string,
  pythonVer: string,
  tmp: string,
  left: (cap?: number) => number,
  env: NodeJS.ProcessEnv | undefined,
): Promise<string | null> {
  const mk = await run(python, ['-m', 'venv', tmp], left(), env);
  if (!mk.ok) return `skipped: ${python} -m venv failed: ${oneLine(mk.err) || mk.code} (Debian/Ubuntu: apt-get install python3-venv)`;
  const pip = await run(
    join(tmp, 'bin', 'python'),
    [
      '-m',
      'pip',
      'install',
      '--disable-pip-version-check',
      '--no-input',
      '--quiet',
      '--retries',
      '1',
      '--timeout',
      '20',
      LAP_SCORE_REQUIREMENT,
    ],
    left(),
    env,
  );
  if (!pip.ok)
    return `skipped: pip could not install ${LAP_SCORE_REQUIREMENT} (PyPI unreachable? set ${LAP_ENV}=off or offline): ${redactText(oneLine(pip.err)) || pip.code}`;
  const v = venvOf(tmp);
  mkdirSync(v.tiktokenCache, { recursive: true });
  writeFileSync(join(v.tiktokenCache, sha1(CL100K_URL)), cl100kTiktokenFile());
  writeFileSync(
    join(tmp, READY),
    JSON.stringify({ requirement: LAP_SCORE_REQUIREMENT, python: pythonVer, built_at: new Date().toISOString() }) + '\n',
  );
  return null;
}

/** The pinned LAP venv: ready, built now, or the reason it cannot be. Never throws. */
export async function ensureLapVenv(o: EnsureVenvOptions = {}): Promise<EnsureVenvResult> {
  const log = o.log ?? (() => {});
  const root = o.root ?? DEFAULT_VENV_ROOT;
  const dir = lapVenvDir(root);
  const timeoutMs = o.timeoutMs ?? 300_000;
  const deadline = Date.now() + timeoutMs;
  const left = (cap = Infinity) => Math.max(1, Math.min(cap, deadline - Date.now()));
  // a venv with READY whose python does not answer the smoke command is rebuilt, once
  let broken: { why: string; stamp: string } | undefined;
  const isReady = () => venvReady(dir) && (broken === undefined || readyStamp(dir) !== broken.stamp);
  const failed = (reason: string): EnsureVenvResult => ({
    ok: false,
    reason: broken
      ? `skipped: the LAP venv ${dir} did not answer \`python ${SMOKE_ARGS.join(' ')}\` (${broken.why}) and rebuilding it failed: ${reason.replace(/^skipped: /, '')}`
      : reason,
  });
  try {
    if (venvReady(dir)) {
      const stamp = readyStamp(dir);
      const why = await smoke(dir, left(o.smokeTimeoutMs ?? SMOKE_TIMEOUT_MS));
      if (why === null) return { ok: true, built: false, ...venvOf(dir) };
      broken = { why, stamp };
      if (o.offline)
        return {
          ok: false,
          reason: `skipped: the LAP venv ${dir} did not answer \`python ${SMOKE_ARGS.join(' ')}\` (${why}) and ${LAP_ENV}=offline forbids rebuilding it`,
        };
      log(`live: LAP venv: ${dir} did not answer \`python ${SMOKE_ARGS.join(' ')}\` (${why}): rebuilding it once`);
    }
    if (o.offline)
      return {
        ok: false,
        reason: `skipped: the ${LAP_SCORE_REQUIREMENT} venv is not built (${dir}) and ${LAP_ENV}=offline forbids installing it`,
      };
    const python = o.python ?? (process.env[LAP_PYTHON_ENV] || undefined) ?? findOnPath('python3');
    if (!python)
      return failed(
        `skipped: python3 not found on PATH (LAP needs Python >= 3.10 with venv and pip to install ${LAP_SCORE_REQUIREMENT}; or set ${LAP_PYTHON_ENV})`,
      );
    const ver = await pythonVersion(python, left(30_000));
    if (!ver.ok) return failed(ver.reason);
    mkdirSync(root, { recursive: true });
    const lockPath = join(root, `.lap-score-${LAP_SCORE_VERSION}.lock`);
    const got = await lock(lockPath, isReady, deadline, log);
    if (got === 'ready') return { ok: true, built: false, ...venvOf(dir) };
    if (got === 'timeout')
      return failed(`skipped: another run is still building the LAP venv (${lockPath}); gave up after ${timeoutMs} ms`);
    const tmp = join(root, `.lap-score-${LAP_SCORE_VERSION}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      if (isReady()) return { ok: true, built: false, ...venvOf(dir) };
      removeDeadTemps(root);
      // a folder without READY is a build that died half-way, one with READY did not answer: never used, replaced
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
      log(`live: LAP venv: building ${dir} (${python} -m venv, pip install ${LAP_SCORE_REQUIREMENT}; once)`);
      const t0 = Date.now();
      const stop = heartbeat(log, 'live: LAP venv: building');
      const buildFailure = await buildVenvAt(python, ver.version, tmp, left, o.env).finally(stop);
      if (buildFailure !== null) return failed(buildFailure);
      try {
        renameSync(tmp, dir);
      } catch (e) {
        // someone else's finished venv is already in place: use it, drop ours
        if (!venvReady(dir)) throw e;
      }
      log(`live: LAP venv: ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      return { ok: true, built: true, ...venvOf(dir) };
    } finally {
      rmSync(tmp, { recursive: true, force: true });
      rmSync(lockPath, { force: true });
    }
  } catch (e) {
    return failed(`skipped: LAP venv ${dir}: ${redactText((e as Error).message.split('\n')[0])}`);
  }
}
