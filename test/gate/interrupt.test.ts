/**
 * SIGINT and SIGTERM at each phase of a real gate run (the fixture-grade phase and the cells
 * phase), and the run deadline: the gate writes a partial report marked `interrupted`, prints one
 * line, exits 130 / 143 / 2, and leaves no process (proxies, fixtures, the children a proxy
 * started) and no listening socket behind. Leftovers are looked for in /proc: every descendant
 * seen just before the signal, and every process tagged with the run's id.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO, testConfig } from './helpers.ts';
import { pidsWithEnv } from '../../pipeline/util/proc.ts';
import type { GateReport } from '../../pipeline/gate/report.ts';

function procTable(): Map<number, number> {
  const m = new Map<number, number>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'latin1');
      if (/\) [ZX] /.test(stat)) continue;
      m.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  return m;
}

function descendants(root: number): number[] {
  const t = procTable();
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [pid, ppid] of t)
      if (ppid === p) {
        out.push(pid);
        walk(pid);
      }
  };
  walk(root);
  return out;
}

function alive(pid: number): boolean {
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

/** socket inodes of listening TCP sockets (IPv4 and IPv6) */
function listeningInodes(): Set<string> {
  const out = new Set<string>();
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A') out.add(cols[9]);
    }
  }
  return out;
}

function socketInodes(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        return m ? [m[1]] : [];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Case {
  signal: 'SIGINT' | 'SIGTERM' | null;
  phase: 'fixture-grade' | 'cells' | 'preflight';
  args: string[];
  /** the stderr line to wait for */
  marker: RegExp;
  /** processes under the gate before it is interrupted */
  minProcs: number;
  patch?: (c: any) => void;
}

const CASES: Case[] = [
  { signal: 'SIGINT', phase: 'fixture-grade', args: ['--cells', 'stdio/2025-11-25'], marker: /fixture grade: started/, minProcs: 2 },
  { signal: 'SIGTERM', phase: 'fixture-grade', args: ['--cells', 'stdio/2025-11-25'], marker: /fixture grade: started/, minProcs: 2 },
  // HTTP fixtures are the gate's own children; stdio fixtures are the proxy's children (tagged)
  {
    signal: 'SIGINT',
    phase: 'cells',
    args: ['--cells', 'http-stateless/2025-11-25', '--no-fixture-grade'],
    marker: /cells: started/,
    minProcs: 5,
  },
  { signal: 'SIGTERM', phase: 'cells', args: ['--cells', 'stdio/2025-11-25', '--no-fixture-grade'], marker: /cells: started/, minProcs: 5 },
  // no signal: the run deadline (timeouts.run_ms) ends it during the cells phase (exit 2)
  {
    signal: null,
    phase: 'preflight',
    args: ['--cells', 'http-stateful/2025-11-25', '--no-fixture-grade'],
    marker: /run [0-9a-f]{8}:/,
    minProcs: 0,
    patch: (c) => (c.timeouts.run_ms = 1000),
  },
];

describe('an interrupted gate leaves nothing behind', { concurrency: 2 }, () => {
  for (const c of CASES) {
    test(`${c.signal ?? 'run deadline'} during the ${c.phase} phase`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-gate-int-'));
      const out = join(dir, 'out');
      const cfg = testConfig(dir, c.patch);
      const child = spawn(process.execPath, [BIN, 'gate', '--config', cfg, '--out', out, '--jobs', '2', ...c.args], {
        cwd: REPO,
        env: { ...process.env, CI: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.stdout.resume();
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      try {
        const t0 = Date.now();
        while (!c.marker.test(stderr) && Date.now() - t0 < 120_000 && child.exitCode === null) await sleep(50);
        assert.match(stderr, c.marker);
        const runId = /run ([0-9a-f]{8}):/.exec(stderr)![1];
        // wait until the phase has its processes up, remember them and their listening sockets
        let seen: number[] = [];
        const t1 = Date.now();
        while (Date.now() - t1 < 60_000 && child.exitCode === null) {
          seen = [...new Set([...seen, ...descendants(child.pid!)])];
          if (seen.filter(alive).length >= c.minProcs) break;
          await sleep(100);
        }
        if (c.signal) {
          // the cells phase: until a socket of the run listens (the fixtures and the proxy are up)
          const t2 = Date.now();
          while (c.phase === 'cells' && Date.now() - t2 < 60_000 && child.exitCode === null) {
            seen = [...new Set([...seen, ...descendants(child.pid!)])];
            const l = listeningInodes();
            if (seen.flatMap(socketInodes).some((i) => l.has(i))) break;
            await sleep(100);
          }
          await sleep(500);
          seen = [...new Set([...seen, ...descendants(child.pid!)])];
          assert.ok(seen.length >= c.minProcs, `only ${seen.length} processes under the gate: ${stderr}`);
        }
        const inodes = new Set(seen.flatMap(socketInodes));
        const listening = [...inodes].filter((i) => listeningInodes().has(i));
        if (c.signal) child.kill(c.signal);
        const code = await exited;
        const expectCode = c.signal === 'SIGINT' ? 130 : c.signal === 'SIGTERM' ? 143 : 2;
        assert.equal(code, expectCode, stderr);
        const lines = stderr
          .trim()
          .split('\n')
          .filter((l) => !l.startsWith('[gate '));
        assert.equal(lines.length, 1, `one line: ${stderr}`);
        assert.match(
          lines[0],
          c.signal
            ? new RegExp(`interrupted \\(${c.signal}\\) during ${c.phase}`)
            : /interrupted \(deadline: the run deadline .* exceeded 1000 ms\)/,
        );
        const report = JSON.parse(readFileSync(join(out, 'gate-report.json'), 'utf8')) as GateReport;
        assert.equal(report.verdict, 'interrupted');
        assert.equal(report.exit_code, expectCode);
        if (c.signal) assert.equal(report.interrupted?.phase, c.phase);
        assert.equal(report.run_id, runId);
        assert.ok((report.interrupted?.unfinished_cells ?? []).length >= 1);
        await sleep(300);
        const left = seen.filter(alive);
        assert.deepEqual(
          left,
          [],
          `left running: ${left
            .map((p) => {
              try {
                return `${p}: ${readFileSync(`/proc/${p}/cmdline`, 'latin1').replace(/\0/g, ' ').slice(0, 150)}`;
              } catch {
                return String(p);
              }
            })
            .join('\n')}`,
        );
        assert.deepEqual(pidsWithEnv('MCPGAUGE_GATE_TAG', `${runId}/`), [], 'a process tagged with this run is still running');
        const still = listeningInodes();
        assert.deepEqual(
          listening.filter((i) => still.has(i)),
          [],
          'a socket of the run is still listening',
        );
        if (c.phase === 'cells' && c.signal) assert.ok(listening.length >= 1, 'the cells phase had listening sockets to check');
        assert.deepEqual(
          readdirSync(tmpdir()).filter(
            (f) =>
              f.startsWith('mcpgauge-gate-') &&
              !f.startsWith('mcpgauge-gate-int-') &&
              !f.startsWith('mcpgauge-gate-test-') &&
              existsSync(join(tmpdir(), f, 'proxy.config.json')) &&
              f.includes(runId),
          ),
          [],
        );
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        for (const p of descendants(child.pid!))
          try {
            process.kill(p, 'SIGKILL');
          } catch {
            /* gone */
          }
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
