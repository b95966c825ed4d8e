/** Test helpers: run the prober against the fixture (stdio child or loopback HTTP child). */
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { comply } from '../../pipeline/comply/comply.ts';
import type { RunReport, Revision, SpecChoice } from '../../pipeline/comply/types.ts';
import { FIXTURE_ARGV, startFixtureProcess } from '../../pipeline/fixture/launch.ts';

export const FEATURES = { FIXTURE_FEATURES: 'resources,prompts,completions,logging,progress,urls,subscribe,mrtr' };
/**
 * The fixture's auth mode (bearer token, PRM, tools/call rate limit) and the --auth header that
 * matches it. The limit (24 calls per 1 s window) sits above a run's own tools/calls (15 in a
 * 2026-07-28 run today) and below half the 50-call burst, so the burst draws a 429 even when a
 * window boundary splits it in two.
 */
export const AUTH_TOKEN = 'fixture-token-3f9c0d2a';
export const AUTH_MODE = { FIXTURE_AUTH_TOKEN: AUTH_TOKEN, FIXTURE_RATE_LIMIT: '24' };
export const AUTH_HEADER = { Authorization: `Bearer ${AUTH_TOKEN}` };
const execFileP = promisify(execFile);
const MCPGAUGE_BIN = fileURLToPath(new URL('../../bin/mcpgauge.mjs', import.meta.url));
const OPTS = { timeoutMs: 15_000, startupTimeoutMs: 60_000, selection: { only: [], skip: [] }, invasive: true, secrets: [] as string[] };

export function fixtureEnv(extra: Record<string, string>): Record<string, string> {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FIXTURE_')) e[k] = v;
  return { ...e, ...extra };
}

export async function stdioRuns(spec: SpecChoice, env: Record<string, string>): Promise<RunReport[]> {
  const target = {
    kind: 'stdio' as const,
    command: process.execPath,
    args: [...FIXTURE_ARGV, '--transport', 'stdio'],
    env: fixtureEnv(env),
  };
  return (await comply(target, { ...OPTS, spec })).report.runs;
}

/** Grade an HTTP endpoint on each revision asked for, with extra request headers. */
export async function urlRuns(url: string, specs: readonly SpecChoice[], headers: Record<string, string> = {}): Promise<RunReport[]> {
  const out: RunReport[] = [];
  for (const spec of specs) out.push(...(await comply({ kind: 'http', url, headers }, { ...OPTS, spec })).report.runs);
  return out;
}

/** One HTTP fixture process (stateless unless `args` says otherwise), graded on each revision asked for (with these request headers). */
export async function httpRuns(
  specs: readonly SpecChoice[],
  env: Record<string, string>,
  args: readonly string[] = ['--stateless'],
  headers: Record<string, string> = {},
): Promise<RunReport[]> {
  const fx = await startFixtureProcess({ transport: 'streamable-http', args: [...args], env, readyTimeoutMs: 60_000 });
  try {
    const out: RunReport[] = [];
    for (const spec of specs)
      out.push(...(await comply({ kind: 'http', url: fx.url, headers }, { ...OPTS, spec, secrets: Object.values(headers) })).report.runs);
    return out;
  } finally {
    await fx.stop();
  }
}

export function notPassing(run: RunReport): string[] {
  return run.results.filter((x) => x.status !== 'pass' && x.status !== 'not_applicable').map((x) => `${x.id}=${x.code}: ${x.detail}`);
}

export type Combo = { wire: 'stdio' | 'http'; revision: Revision };

/** `mcpgauge comply URL --format json` as a child process trusting `certFile` (NODE_EXTRA_CA_CERTS): the report's runs */
export async function complyChild(url: string, spec: SpecChoice, certFile: string, args: readonly string[] = []): Promise<RunReport[]> {
  const { stdout } = await execFileP(
    process.execPath,
    [MCPGAUGE_BIN, 'comply', url, '--format', 'json', '--spec-version', spec, '--timeout', '15000', ...args],
    {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile },
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((e: { stdout?: string; message: string }) => (e.stdout ? { stdout: e.stdout } : Promise.reject(e)));
  return (JSON.parse(stdout) as { runs: RunReport[] }).runs;
}

/**
 * The TLS mode: an https fixture process graded by `mcpgauge comply` as a child process that
 * trusts the test certificate (NODE_EXTRA_CA_CERTS is read at process start only, so the prober
 * cannot run in this process). Returns the JSON report's runs.
 */
export async function tlsRuns(
  specs: readonly SpecChoice[],
  certFile: string,
  env: Record<string, string>,
  args: readonly string[] = ['--stateless'],
  complyArgs: (spec: SpecChoice) => string[] = () => [],
): Promise<RunReport[]> {
  const fx = await startFixtureProcess({ transport: 'streamable-http', args: [...args], env, readyTimeoutMs: 60_000 });
  try {
    if (!fx.url.startsWith('https://')) throw new Error(`the TLS fixture printed ${fx.url}, not an https URL`);
    const out: RunReport[] = [];
    for (const spec of specs) out.push(...(await complyChild(fx.url, spec, certFile, complyArgs(spec))));
    return out;
  } finally {
    await fx.stop();
  }
}

const BIN = fileURLToPath(new URL('../../bin/mcpgauge.mjs', import.meta.url));

/** `mcpgauge comply ARGS` as a real process: exit code, stdout, stderr. */
export function complyCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, 'comply', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    c.on('exit', (code) => resolve({ code, out, err }));
  });
}
