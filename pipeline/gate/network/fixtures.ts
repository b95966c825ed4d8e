/**
 * The fixtures of a network cell: `gate_main` (echo mode) reached through a toxiproxy link, so
 * every byte between the proxy under test and it crosses the fault proxy, and one direct echo
 * fixture behind the other role names (`gate_barrier`, `gate_hang`, `gate_crash`: the same
 * process, so the ready step finds every role): the second session calls it while a fault is on
 * the main link. A proxy that fronts one upstream per instance gets `gate_main` alone.
 * The gate owns every process here (tagged `<run>/<cell>/<role>` and `<run>/<cell>/toxiproxy`).
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureProcess, type FixtureProcess } from '../../fixture/launch.ts';
import { allowedEnv } from '../../util/proc.ts';
import type { CellDef } from '../cells.ts';
import { protocolOf } from '../cells.ts';
import type { GateConfig } from '../config.ts';
import { harnessError } from '../config.ts';
import { ROLES, TAG_ENV, cellTag, upstreamName, type CellFixtures, type Role, type RoleFixture } from '../cell-fixtures.ts';
import { ensureToxiproxy, startToxiproxy, type Toxiproxy } from './toxiproxy.ts';
export type { NetworkRig } from './toxiproxy.ts';

export async function startNetworkFixtures(
  cell: CellDef,
  cfg: GateConfig,
  runId: string,
  logDir: string,
  single = false,
): Promise<CellFixtures> {
  const built = await ensureToxiproxy();
  if (!built.ok) throw harnessError(`${cell.id}: ${built.reason}`);
  const transport = cell.transport === 'sse' ? 'sse' : 'streamable-http';
  const args = cell.transport === 'http-stateless' ? ['--stateless'] : [];
  const protocol = protocolOf(cell.era);
  const procs: FixtureProcess[] = [];
  let toxiproxy: Toxiproxy | undefined;
  const start = async (role: Role, log: string): Promise<FixtureProcess> => {
    appendFileSync(log, '');
    try {
      const p = await startFixtureProcess({
        transport,
        args,
        env: { [TAG_ENV]: cellTag(runId, cell, role) },
        readyTimeoutMs: cfg.timeouts.ready_ms,
      });
      procs.push(p);
      p.child.stderr!.on('data', (d: Buffer | string) => appendFileSync(log, d));
      return p;
    } catch (e) {
      throw harnessError(`fixture ${upstreamName(role)} (${cell.id}) cannot start: ${(e as Error).message}`);
    }
  };
  try {
    const mainLog = join(logDir, 'fixture-main.log');
    const sideLog = join(logDir, 'fixture-barrier.log');
    const [main, side] = await Promise.all([start('main', mainLog), single ? Promise.resolve(undefined) : start('barrier', sideLog)]);
    const tpLog = join(logDir, 'toxiproxy.log');
    appendFileSync(tpLog, '');
    try {
      toxiproxy = await startToxiproxy(built.binary, {
        env: allowedEnv({ [TAG_ENV]: `${runId}/${cell.id}/toxiproxy` }),
        log: tpLog,
        readyMs: cfg.timeouts.ready_ms,
      });
    } catch (e) {
      throw harnessError(`${cell.id}: ${(e as Error).message}`);
    }
    const upstream = `127.0.0.1:${main.port}`;
    const link = 'gate_main';
    const { listen, port: listenPort } = await toxiproxy.link(link, upstream);
    const mainUrl = main.url.replace(`127.0.0.1:${main.port}`, listen);
    const rf = (role: Role, name: string, url: string, log: string, proc: FixtureProcess): RoleFixture => ({
      role,
      tag: cellTag(runId, cell, role === 'main' ? 'main' : 'barrier'),
      name,
      entry: { name, url, transport, protocol },
      argv: [],
      dockerArgv: [],
      url,
      proc,
      restarts: 0,
      log,
    });
    const roles = {} as Record<Role, RoleFixture>;
    roles.main = rf('main', upstreamName('main'), mainUrl, mainLog, main);
    for (const role of ROLES) if (role !== 'main') roles[role] = side ? rf(role, upstreamName(role), side.url, sideLog, side) : roles.main;
    const tp = toxiproxy;
    return {
      roles,
      single,
      distinct: single ? [roles.main] : ROLES.map((r) => roles[r]),
      network: { toxiproxy: tp, link, listenPort, upstream, tagPrefix: `${runId}/${cell.id}/` },
      async kill() {
        throw new Error('a network cell kills no fixture');
      },
      async stop() {
        await Promise.all([...procs.map((p) => p.stop()), tp.stop()]);
        return undefined;
      },
    };
  } catch (e) {
    await Promise.all([...procs.map((p) => p.stop('SIGKILL')), toxiproxy?.stop()]);
    throw e;
  }
}
