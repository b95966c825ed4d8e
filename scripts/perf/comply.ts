/**
 * bench-perf section "comply": a full `mcpgauge comply` run (whole catalog, auto era) against
 * @modelcontextprotocol/server-everything over stdio and over streamable HTTP (loopback).
 * Figures per run: wall time, of which the catalog itself (handshake answered -> last probe
 * answered; the server's cold start is reported apart), checks evaluated, probes sent, and the
 * prober process's peak RSS (resourceUsage().maxRSS of a child that runs only the prober).
 * Target (printed, not asserted): the catalog in < 1 s on stdio. Loopback only.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SELF = resolve(import.meta.dirname, 'comply.ts');
const PRELOAD = join(ROOT, 'test', 'comply', 'loopback-preload.mjs');
const require = createRequire(import.meta.url);
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const ROUNDS = 3;

interface Figures {
  wallMs: number;
  catalogMs: number;
  coldStartMs: number;
  evaluated: number;
  applicable: number;
  probes: number;
  grade: string | null;
  maxRssMb: number;
}

async function child(target: string[]): Promise<Figures> {
  const { comply } = await import('../../pipeline/comply/comply.ts');
  const { parseTarget } = await import('../../pipeline/comply/gather/server-target.ts');
  const t0 = performance.now();
  const { report, recording } = await comply(parseTarget(target, {}), {
    spec: 'auto',
    timeoutMs: 15_000,
    startupTimeoutMs: 60_000,
    selection: { only: [], skip: [] },
    invasive: true,
    secrets: [],
  });
  const wallMs = performance.now() - t0;
  const ex = recording.evidence.flatMap((e) => e.exchanges);
  const hs = ex.filter((e) => e.probe === 'handshake');
  const firstAnswer = Math.min(...hs.map((e) => e.at + e.ms));
  const lastAnswer = Math.max(...ex.map((e) => e.at + e.ms));
  return {
    wallMs,
    catalogMs: lastAnswer - firstAnswer,
    coldStartMs: firstAnswer,
    evaluated: report.runs.reduce((n, r) => n + r.conformance.evaluated + r.security.evaluated, 0),
    applicable: report.runs.reduce((n, r) => n + r.conformance.applicable + r.security.applicable, 0),
    probes: ex.length,
    grade: report.runs.map((r) => `${r.revision}:${r.conformance.grade}`).join(' '),
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

function runChild(target: string[]): Promise<Figures> {
  return new Promise((res, rej) => {
    const c = spawn(process.execPath, ['--import', 'tsx', SELF, '--child', ...target], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('exit', (code) => (code === 0 ? res(JSON.parse(out) as Figures) : rej(new Error(`child exited ${code}`))));
  });
}

async function everythingHttp(): Promise<{ url: string; stop(): void }> {
  const c = spawn(process.execPath, ['--import', PRELOAD, EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((res, rej) => {
    let e = '';
    c.stderr!.on('data', (d) => {
      e += d;
      const m = /\[loopback\] port (\d+)/.exec(e);
      if (m) res(`http://127.0.0.1:${m[1]}/mcp`);
    });
    c.on('exit', (code) => rej(new Error(`server-everything exited ${code}`)));
  });
  return { url, stop: () => c.kill('SIGTERM') };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function show(name: string, runs: Figures[]): void {
  const f = runs[0];
  console.log(
    `${name}: wall ${median(runs.map((r) => r.wallMs)).toFixed(0)} ms (median of ${runs.length}), catalog ${median(runs.map((r) => r.catalogMs)).toFixed(0)} ms ` +
      `after a ${median(runs.map((r) => r.coldStartMs)).toFixed(0)} ms cold start; ${f.evaluated}/${f.applicable} checks evaluated, ${f.probes} probes; ` +
      `peak RSS ${Math.max(...runs.map((r) => r.maxRssMb)).toFixed(0)} MB; ${f.grade}`,
  );
}

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(await child(process.argv.slice(3))));
} else {
  const stdio: Figures[] = [];
  for (let i = 0; i < ROUNDS; i++) stdio.push(await runChild([process.execPath, EVERYTHING, 'stdio']));
  show('server-everything, stdio', stdio);
  const srv = await everythingHttp();
  try {
    const http: Figures[] = [];
    for (let i = 0; i < ROUNDS; i++) http.push(await runChild([srv.url]));
    show('server-everything, streamable HTTP', http);
  } finally {
    srv.stop();
  }
  console.log(
    'target (not asserted): catalog < 1000 ms on stdio; measured by performance.now() in the prober process, RSS by process.resourceUsage().maxRSS',
  );
}
