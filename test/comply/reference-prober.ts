/**
 * The reference compliance prober (YawLabs mcp-compliance, a built copy kept in
 * ../shared/peers/mcp-compliance beside the checkout) as a peer of `mcpgauge comply`:
 * prepared once into <cache root>/peers/mcp-compliance (the folder copied, its runtime
 * dependencies installed with `npm install --omit=dev`; built in a temp sibling and renamed into
 * place, so a crashed or concurrent preparation never leaves a half-installed copy), then run as
 * `node dist/index.js test --format json -- <server command>` with a deadline, its per-test
 * verdicts read back from its JSON report. `runComply` runs `mcpgauge comply` the same way (a CLI
 * process, JSON on stdout), so the two wall times are measured alike.
 *
 * Source folder override: MCPGAUGE_PEERS_SRC (a folder holding mcp-compliance/), for a checkout
 * whose ../shared is elsewhere (a git worktree).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { CACHE_ROOT, REPO_ROOT } from '../../pipeline/constants.ts';

/** the read-only built copy of the peer, or null when absent (a clone outside the workplace) */
export function referenceSource(): string | null {
  const dir = join(
    process.env.MCPGAUGE_PEERS_SRC ? resolve(process.env.MCPGAUGE_PEERS_SRC) : resolve(REPO_ROOT, '..', 'shared', 'peers'),
    'mcp-compliance',
  );
  return existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'dist', 'index.js')) ? dir : null;
}

export interface ReferencePeer {
  cli: string;
  version: string;
}

/** a stdio server command (the env is added to this process's environment) */
export interface StdioServer {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

const require = createRequire(import.meta.url);
const entry = (name: string) => join(dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');
/**
 * The four npm reference servers over stdio, started as real-servers.test.ts starts them; each
 * takes a writable seed folder (holding a.txt) of its own for the run.
 */
export const REFERENCE_SERVERS: Record<string, (seedDir: string) => StdioServer> = {
  'everything-stdio': () => ({ command: process.execPath, args: [entry('server-everything'), 'stdio'] }),
  'filesystem-stdio': (dir) => ({ command: process.execPath, args: [entry('server-filesystem'), dir] }),
  'memory-stdio': (dir) => ({
    command: process.execPath,
    args: [entry('server-memory')],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
  }),
  'sequential-thinking-stdio': () => ({ command: process.execPath, args: [entry('server-sequential-thinking')] }),
};

export interface ProbeRun {
  /** process start to exit, in this process (performance.now) */
  wallMs: number;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<ProbeRun> {
  return new Promise((res, rej) => {
    const t0 = performance.now();
    const c = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d) => (stdout += d));
    c.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.length > 1_000_000) stderr = stderr.slice(-500_000);
    });
    const t = setTimeout(() => c.kill('SIGKILL'), opts.timeoutMs);
    c.on('error', rej);
    c.on('exit', (code, signal) => {
      clearTimeout(t);
      if (signal === 'SIGKILL') return rej(new Error(`${args.slice(0, 3).join(' ')}: past the ${opts.timeoutMs} ms deadline, killed`));
      res({ wallMs: performance.now() - t0, exitCode: code, stdout, stderr });
    });
  });
}

const lastLines = (s: string) => s.trim().split('\n').slice(-5).join(' | ');

/**
 * The prepared peer, preparing it first when missing or prepared from another source
 * (the marker holds a hash of the source's package.json and dist/index.js).
 */
export async function ensureReference(src: string, timeoutMs = 300_000): Promise<ReferencePeer> {
  const dir = join(CACHE_ROOT, 'peers', 'mcp-compliance');
  const marker = join(dir, '.prepared');
  const want = createHash('sha256')
    .update(readFileSync(join(src, 'package.json')))
    .update(readFileSync(join(src, 'dist', 'index.js')))
    .digest('hex')
    .slice(0, 16);
  const peer = (): ReferencePeer => ({
    cli: join(dir, 'dist', 'index.js'),
    version: (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version,
  });
  const ready = () => existsSync(marker) && readFileSync(marker, 'utf8').trim() === want;
  if (ready()) return peer();
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    cpSync(src, tmp, { recursive: true, filter: (p) => !p.includes(`${src}/node_modules`) });
    const r = await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: tmp, timeoutMs });
    if (r.exitCode !== 0)
      throw new Error(`preparing the reference prober failed (npm install exit ${r.exitCode}): ${lastLines(r.stdout + r.stderr)}`);
    writeFileSync(join(tmp, '.prepared'), `${want}\n`);
    if (ready()) return peer(); // a concurrent preparation won
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return peer();
}

export interface ReferenceTest {
  id: string;
  passed: boolean;
  required: boolean;
  details?: string;
}
export interface ReferenceReport {
  toolVersion: string;
  specVersion: string;
  grade: string;
  score: number;
  tests: ReferenceTest[];
}

/** The reference prober on a stdio server: its report and wall time (a report it cannot write is an error naming its output). */
export async function runReference(
  peer: ReferencePeer,
  server: StdioServer,
  timeoutMs = 120_000,
): Promise<{ report: ReferenceReport; run: ProbeRun }> {
  const r = await run(process.execPath, [peer.cli, 'test', '--format', 'json', '--no-color', '--', server.command, ...server.args], {
    cwd: dirname(dirname(peer.cli)),
    env: { ...process.env, ...server.env, NO_COLOR: '1' },
    timeoutMs,
  });
  try {
    return { report: JSON.parse(r.stdout) as ReferenceReport, run: r };
  } catch {
    throw new Error(`the reference prober (exit ${r.exitCode}) wrote no JSON report: ${lastLines(r.stdout + r.stderr)}`);
  }
}

export interface ComplyResult {
  id: string;
  status: string;
  reason?: string;
}
export interface ComplyReport {
  runs: Array<{ revision: string; wire: string; conformance: { grade: string | null; score: number | null }; results: ComplyResult[] }>;
}

/** `mcpgauge comply --format json --spec-version <rev>` (the built CLI) on a stdio server. */
export async function runComply(
  server: StdioServer,
  spec = '2025-11-25',
  timeoutMs = 120_000,
): Promise<{ report: ComplyReport; run: ProbeRun }> {
  const r = await run(
    process.execPath,
    [join(REPO_ROOT, 'bin', 'mcpgauge.mjs'), 'comply', '--format', 'json', '--spec-version', spec, '--', server.command, ...server.args],
    { cwd: REPO_ROOT, env: { ...process.env, ...server.env }, timeoutMs },
  );
  try {
    return { report: JSON.parse(r.stdout) as ComplyReport, run: r };
  } catch {
    throw new Error(`mcpgauge comply (exit ${r.exitCode}) wrote no JSON report: ${lastLines(r.stdout + r.stderr)}`);
  }
}
