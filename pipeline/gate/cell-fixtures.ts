/**
 * The fixtures of one cell. Each cell fronts four fixture upstreams, one per role, each in the
 * fault mode its steps need (fault modes are per process):
 *   main     echo mode: ready, discover, call, hang (slow), kill, isolation, budget; its tool list
 *            changes on SIGUSR2 (freshness)
 *   barrier  barrier mode, N=4, on tools/call: concurrency
 *   hang     roles mode: an echo call whose input starts with `hang` hangs (cancel's `hangme`), its
 *            `stats` calls never do. Not "the first tools/call hangs": over HTTP the proxy's POSTs of
 *            the hanging call and of the step's first stats call can arrive in either order, and a
 *            stats call that came first hung until the proxy's call timeout (seen in CI, sse cell)
 *   crash    crash mode, the second tools/call exits the process: crash mid-call
 * stdio cells: the proxy starts them (command + env in the proxy config); every fixture process
 * carries MCPGAUGE_GATE_TAG=<cell>:<role> so the gate can find (and count) it in /proc.
 * HTTP cells: the gate starts them (port 0 first, then the same port on every restart) and keeps
 * them alive: a fixture that exits (crash mode, or killed by the kill step) is started again on
 * its port, since the gate owns the process.
 * Single-upstream cell (a proxy that fronts one upstream per instance): ONE fixture, gate_main, in
 * BACKEND_MODE=roles carries every role; the barrier, hang and crash calls select their fault per
 * call by the echo input's prefix (pipeline/fixture/faults.ts ROLE_PREFIXES), so `roles.barrier`,
 * `roles.hang`, `roles.crash` are that same fixture. Steps credit a role only with the fixture's
 * own log lines (evidence.ts).
 */
import { appendFileSync } from 'node:fs';
import { pidsWithEnv } from '../util/proc.ts';
import { join } from 'node:path';
import { startFixtureProcess, FIXTURE_ARGV, type FixtureProcess } from '../fixture/launch.ts';
import { reservePort } from '../adapter/index.ts';
import type { CellDef } from './cells.ts';
import { cellSlug, protocolOf } from './cells.ts';
import type { GateConfig } from './config.ts';
import { harnessError } from './config.ts';
import type { NetworkRig } from './network/toxiproxy.ts';
import { CELL_LABEL, ROLE_LABEL, dockerFixtureArgv, sweepContainers, RUN_LABEL, type ContainerSweep } from './docker.ts';

export const ROLES = ['main', 'barrier', 'hang', 'crash'] as const;
/**
 * Test-only: extra fixture arguments (JSON array), so a test can make every fixture fail to start
 * (a harness error, exit 2). Not documented in --help.
 */
export const FIXTURE_ARGS_ENV = 'MCPGAUGE_GATE_FIXTURE_ARGS';

function testFixtureArgs(): string[] {
  const raw = process.env[FIXTURE_ARGS_ENV];
  if (!raw) return [];
  const v = JSON.parse(raw) as unknown;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw harnessError(`${FIXTURE_ARGS_ENV} must be a JSON array of strings`);
  return v;
}

/** The stdio fixture command line (node + light entry), with any test-only extra arguments. */
export function stdioFixtureArgv(): string[] {
  return [process.execPath, ...FIXTURE_ARGV, '--transport', 'stdio', ...testFixtureArgs()];
}

/**
 * Start the stdio fixture once and ping it, before any cell: a fixture that cannot start is a
 * harness error (exit 2), not a proxy failure. Resolves with the measured start-up (spawn to the
 * first answered ping, ms): the ready step's deadline scales with it on a loaded machine.
 * `tag`: the run's MCPGAUGE_GATE_TAG value, so a sweep finds the process.
 */
export async function preflightFixture(timeoutMs: number, tag?: string): Promise<number> {
  const { connectMcp } = await import('../mcp/client.ts');
  const { allowedEnv } = await import('../util/proc.ts');
  const [command, ...args] = stdioFixtureArgv();
  let conn;
  const t0 = performance.now();
  try {
    conn = await connectMcp({ kind: 'stdio', command, args, env: allowedEnv(tag ? { [TAG_ENV]: tag } : {}) }, { timeoutMs });
    await conn.callTool('ping', {});
    return Math.round(performance.now() - t0);
  } catch (e) {
    throw harnessError(`the fixture cannot start: ${(e as Error).message.split('\n')[0]}`);
  } finally {
    await conn?.close();
  }
}
export type Role = (typeof ROLES)[number];
export const TAG_ENV = 'MCPGAUGE_GATE_TAG';
export const BARRIER_N = 4;
/** the crash fixture exits on its Nth tools/call (1 = the pre-crash ping, 2 = the crashing call) */
export const CRASH_AFTER_N = 2;

export function upstreamName(role: Role): string {
  return `gate_${role}`;
}

/**
 * The main fixture changes its tool list on SIGUSR2 (the freshness step) and says its 2026-07-28
 * lists stay fresh this long (`ttlMs`; pipeline/fixture/list-changes.ts).
 */
export const FRESH_TTL_MS = 2000;
const LIST_CHANGE_ENV = { FIXTURE_LIST_CHANGES: '1', FIXTURE_TTL_MS: String(FRESH_TTL_MS) };

export function faultEnv(role: Role, cfg: GateConfig, single = false): Record<string, string> {
  switch (role) {
    case 'main':
      return single
        ? {
            BACKEND_MODE: 'roles',
            BARRIER_N: String(BARRIER_N),
            BARRIER_TIMEOUT_SECONDS: String(cfg.timeouts.barrier_timeout_s),
            ...LIST_CHANGE_ENV,
          }
        : { ...LIST_CHANGE_ENV };
    case 'barrier':
      return {
        BACKEND_MODE: 'barrier',
        BARRIER_N: String(BARRIER_N),
        BARRIER_TIMEOUT_SECONDS: String(cfg.timeouts.barrier_timeout_s),
        FAULT_METHODS: 'tools/call',
      };
    case 'hang':
      return { BACKEND_MODE: 'roles' };
    case 'crash':
      return { BACKEND_MODE: 'crash', CRASH_AFTER_N: String(CRASH_AFTER_N), FAULT_METHODS: 'tools/call' };
  }
}

export interface RoleFixture {
  /** the role of the process (single-upstream cell: `main` for every role) */
  role: Role;
  /** MCPGAUGE_GATE_TAG of its process(es) */
  tag: string;
  /** upstream name in the proxy config */
  name: string;
  /** reference-proxy config entry (also {SERVERS_JSON}) */
  entry: Record<string, unknown>;
  /** argv of a stdio fixture (with `env K=V` in front; docker cell: the `docker run` line with its stderr to the log), or [] */
  argv: string[];
  /** docker cell: the bare `docker run --rm -i --network none --label … IMAGE /mcpfixture --transport stdio` argv ({FIXTURE_DOCKER_CMD}); else [] */
  dockerArgv: string[];
  /** HTTP fixtures: the URL the proxy connects to */
  url?: string;
  /** HTTP fixtures: the running process (replaced on restart) */
  proc?: FixtureProcess;
  /** HTTP fixtures: times the gate started it again */
  restarts: number;
  log: string;
}

export interface CellFixtures {
  roles: Record<Role, RoleFixture>;
  /** single-upstream cell: one fixture (gate_main, roles mode) behind every role */
  single: boolean;
  /** the distinct fixtures (one in a single-upstream cell) */
  distinct: RoleFixture[];
  /** network cells only (network/fixtures.ts): the fault proxy in front of gate_main */
  network?: NetworkRig;
  /** kill an HTTP fixture the gate owns; it is restarted on the same port */
  kill(role: Role): Promise<void>;
  /** docker cell: the containers left after the teardown (checked and removed by label) */
  stop(): Promise<ContainerSweep | undefined>;
}

/** the labels of one docker-cell fixture container (role omitted: every container of the cell) */
export function containerLabels(runId: string, cell: CellDef, role?: Role): Record<string, string> {
  return { [RUN_LABEL]: runId, [CELL_LABEL]: cellSlug(cell.id), ...(role ? { [ROLE_LABEL]: role } : {}) };
}

/** pids of live processes carrying `MCPGAUGE_GATE_TAG=<tag>` exactly (Linux /proc; [] elsewhere). */
export function taggedPids(tag: string): number[] {
  return pidsWithEnv(TAG_ENV, tag, { exact: true });
}

export function cellTag(runId: string, cell: CellDef, role: Role): string {
  return `${runId}/${cell.id}/${role}`;
}

/** A fixture the proxy starts itself (docker or stdio cell): its command line and server entry, filled into `rf`. */
function describeCommandFixture(
  rf: RoleFixture,
  cell: CellDef,
  cfg: GateConfig,
  runId: string,
  single: boolean,
  protocol: ReturnType<typeof protocolOf>,
): void {
  const { role, name, log } = rf;
  if (cell.transport === 'docker') {
    // the proxy starts a container per fixture (and a new one whenever it exits); labels find them
    const env = faultEnv(role, cfg, single);
    rf.dockerArgv = dockerFixtureArgv({
      runId,
      labels: { [CELL_LABEL]: cellSlug(cell.id), [ROLE_LABEL]: role },
      env,
      args: testFixtureArgs(),
    });
    const sh = ['/bin/sh', '-c', `exec "$@" 2>>'${log.replace(/'/g, `'\\''`)}'`, 'sh', ...rf.dockerArgv];
    rf.argv = sh;
    rf.entry = { name, command: sh[0], args: sh.slice(1), protocol };
  } else {
    const env = { ...faultEnv(role, cfg, single), [TAG_ENV]: rf.tag };
    const node = stdioFixtureArgv();
    // stderr of the fixture goes to its log file; exec keeps the pid the fixture reports
    const sh = ['/bin/sh', '-c', `exec "$@" 2>>'${log.replace(/'/g, `'\\''`)}'`, 'sh', ...node];
    rf.argv = ['/usr/bin/env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...sh];
    rf.entry = { name, command: sh[0], args: sh.slice(1), env, protocol };
  }
}

export async function startCellFixtures(
  cell: CellDef,
  cfg: GateConfig,
  runId: string,
  logDir: string,
  single = false,
): Promise<CellFixtures> {
  const roles = {} as Record<Role, RoleFixture>;
  const own: Role[] = single ? ['main'] : [...ROLES];
  const protocol = protocolOf(cell.era);
  let stopping = false;
  // stdio and docker fixtures are started by the proxy; the others are the gate's own processes
  const http = cell.transport !== 'stdio' && cell.transport !== 'docker';
  const transport = cell.transport === 'sse' ? 'sse' : 'streamable-http';
  const extraArgs = cell.transport === 'http-stateless' ? ['--stateless'] : [];

  const startHttp = async (rf: RoleFixture, port: number): Promise<void> => {
    const env = { ...faultEnv(rf.role, cfg, single), [TAG_ENV]: rf.tag };
    let proc: FixtureProcess;
    try {
      proc = await startFixtureProcess({
        transport,
        args: [...extraArgs, ...testFixtureArgs()],
        env,
        port,
        readyTimeoutMs: cfg.timeouts.ready_ms,
      });
    } catch (e) {
      throw harnessError(`fixture ${rf.name} (${cell.id}) cannot start: ${(e as Error).message}`);
    }
    rf.proc = proc;
    rf.url = proc.url;
    // it comes back on this port after a crash or a kill: no parallel cell may be handed it meanwhile
    reservePort(proc.port);
    let seen = 0;
    proc.child.stderr!.on('data', () => {
      const text = proc.stderr();
      appendFileSync(rf.log, text.slice(seen));
      seen = text.length;
    });
    proc.child.once('exit', (code, sig) => {
      appendFileSync(rf.log, `[gate] fixture pid ${proc.pid} exited (code ${code}, signal ${sig})\n`);
      if (stopping || rf.proc !== proc) return;
      rf.restarts++;
      // the gate owns HTTP fixtures: bring it back on the same port (the proxy must reconnect by itself)
      void startHttp(rf, proc.port).catch((e) => appendFileSync(rf.log, `[gate] restart failed: ${(e as Error).message}\n`));
    });
  };

  try {
    for (const role of own) {
      const name = upstreamName(role);
      const log = join(logDir, `fixture-${role}.log`);
      appendFileSync(log, '');
      const rf: RoleFixture = { role, tag: cellTag(runId, cell, role), name, entry: {}, argv: [], dockerArgv: [], restarts: 0, log };
      roles[role] = rf;
      if (!http) describeCommandFixture(rf, cell, cfg, runId, single, protocol);
    }
    if (http) {
      await Promise.all(own.map((role) => startHttp(roles[role], 0)));
      for (const role of own) {
        const rf = roles[role];
        rf.entry = { name: rf.name, url: rf.url, transport: cell.transport === 'sse' ? 'sse' : 'streamable-http', protocol };
      }
    }
  } catch (e) {
    stopping = true;
    await Promise.all(own.map((r) => roles[r]?.proc?.stop('SIGKILL')));
    throw e;
  }
  for (const role of ROLES) roles[role] ??= roles.main;
  return {
    roles,
    single,
    distinct: own.map((r) => roles[r]),
    async kill(role) {
      const rf = roles[role];
      if (!rf.proc) throw new Error(`fixture ${rf.name} is not owned by the gate`);
      const proc = rf.proc;
      // the exit handler restarts it on the same port; wait until the new one answers
      await proc.stop('SIGKILL');
      const deadline = Date.now() + 20_000;
      while (rf.proc === proc && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    },
    async stop() {
      stopping = true;
      await Promise.all(own.map((r) => roles[r].proc?.stop()));
      // after the proxy stopped: every container of this cell must be gone (--rm), else it is removed and reported
      return cell.transport === 'docker' ? sweepContainers(containerLabels(runId, cell)) : undefined;
    },
  };
}
