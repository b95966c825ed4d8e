/**
 * The hygiene pieces the gate (and every launcher) relies on, on real files and real processes:
 * capped, redacted logs; the allow-listed child environment; executable checks naming the OS
 * error; the /proc sweep of tagged processes; the parent watch; the proxy's jittered backoff.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CappedLog, capAndScrubFile } from '../../pipeline/util/log.ts';
import { PARENT_ENV, allowedEnv, assertExecutable, passedSecrets, pidsWithEnv, sweepTagged } from '../../pipeline/util/proc.ts';
import { REDACTED } from '../../pipeline/util/redact.ts';
import { backoffDelay } from '../../pipeline/proxy/upstream.ts';
import { MCPGAUGE_BIN } from '../proxy/helpers.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'mcpgauge-hyg-'));

test('CappedLog: a flood keeps head and tail within the cap, says the cut, redacts secrets in both', () => {
  const dir = tmp();
  try {
    const p = join(dir, 'proxy.log');
    const log = new CappedLog(p, 8192, ['sekret-value-1']);
    log.write('first line with sekret-value-1 and GITHUB_TOKEN=ghp_abcdef\n');
    for (let i = 0; i < 20000; i++) log.write(`flood line ${i} ${'y'.repeat(40)}\n`);
    log.write('last line sekret-');
    log.write('value-1 split over two chunks\n');
    const cut = log.close();
    const text = readFileSync(p, 'utf8');
    assert.ok(statSync(p).size < 8192 + 200, `size ${statSync(p).size}`);
    assert.ok(cut && cut.cut_bytes > 900_000, JSON.stringify(cut));
    assert.match(text, /^first line with \[redacted\] and GITHUB_TOKEN=\[redacted\]/);
    assert.match(text, /\[mcpgauge: \d+ bytes of output cut here \(log cap 8192 bytes: head and tail kept\)\]/);
    assert.match(text, /last line \[redacted\] split over two chunks\n$/);
    assert.equal(text.includes('sekret-value-1'), false);
    assert.equal(text.includes('ghp_abcdef'), false);
    // a small log is not cut
    const q = join(dir, 'small.log');
    const s = new CappedLog(q, 8192);
    s.write('hello\n');
    assert.equal(s.close(), null);
    assert.equal(readFileSync(q, 'utf8'), 'hello\n');
    // a file written by another process: bounded and scrubbed afterwards
    const f = join(dir, 'fixture.log');
    writeFileSync(f, `key sekret-value-1\n${'z'.repeat(50_000)}\nend\n`);
    const c2 = capAndScrubFile(f, 4096, ['sekret-value-1']);
    assert.ok(c2 && c2.cut_bytes > 40_000);
    const t2 = readFileSync(f, 'utf8');
    assert.ok(t2.startsWith(`key ${REDACTED}`) && t2.endsWith('end\n') && t2.includes('bytes of output cut here'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('allowedEnv: path, home, locale and temp only, plus --pass-env names; secret-looking passed values are collected', () => {
  const from = {
    PATH: '/bin',
    HOME: '/h',
    LANG: 'C.UTF-8',
    LC_ALL: 'C',
    TMPDIR: '/t',
    GITHUB_TOKEN: 'ghp_x',
    AWS_SECRET_ACCESS_KEY: 'aws',
    MY_PLAIN: 'p',
    MY_API_KEY: 'key-12345',
  };
  assert.deepEqual(allowedEnv({ X: '1' }, [], from), { PATH: '/bin', HOME: '/h', LANG: 'C.UTF-8', LC_ALL: 'C', TMPDIR: '/t', X: '1' });
  assert.deepEqual(Object.keys(allowedEnv({}, ['MY_PLAIN', 'MY_API_KEY'], from)).sort(), [
    'HOME',
    'LANG',
    'LC_ALL',
    'MY_API_KEY',
    'MY_PLAIN',
    'PATH',
    'TMPDIR',
  ]);
  assert.deepEqual(passedSecrets(['MY_PLAIN', 'MY_API_KEY'], from), ['key-12345']);
});

test('assertExecutable: ENOENT and EACCES are exit-2 errors naming the OS error', () => {
  const dir = tmp();
  try {
    const f = join(dir, 'not-exec.sh');
    writeFileSync(f, '#!/bin/sh\n');
    chmodSync(f, 0o644);
    const err = (fn: () => void) => {
      try {
        fn();
      } catch (e) {
        return e as Error & { exitCode: number };
      }
      return null;
    };
    const a = err(() => assertExecutable('no-such-binary-mcpg', '--proxy-cmd'));
    assert.equal(a?.exitCode, 2);
    assert.match(a!.message, /--proxy-cmd: cannot start "no-such-binary-mcpg": ENOENT/);
    const b = err(() => assertExecutable(f, '--proxy-cmd'));
    assert.equal(b?.exitCode, 2);
    assert.match(b!.message, /EACCES/);
    assert.equal(
      err(() => assertExecutable('sh', '--proxy-cmd')),
      null,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sweepTagged finds and kills tagged processes (also grandchildren in their own session)', async () => {
  const tag = `t${process.pid}x${Date.now()}`;
  // a shell that starts a detached grandchild: the tag is inherited, the process tree is not ours
  const sh = spawn('/bin/sh', ['-c', 'setsid sleep 60 & sleep 60'], {
    env: { PATH: process.env.PATH!, MCPGAUGE_GATE_TAG: `${tag}/a` },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 10_000;
  while (pidsWithEnv('MCPGAUGE_GATE_TAG', `${tag}/`).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.equal(pidsWithEnv('MCPGAUGE_GATE_TAG', `${tag}/`).length, 3);
  assert.ok(sweepTagged('MCPGAUGE_GATE_TAG', `${tag}/`) >= 3);
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(pidsWithEnv('MCPGAUGE_GATE_TAG', `${tag}/`), []);
  sh.kill('SIGKILL');
});

test('parent watch: a proxy whose parent died exits by itself', async () => {
  const dir = tmp();
  try {
    const cfg = join(dir, 'p.json');
    // an upstream that never exists: the proxy keeps reconnecting (with backoff) until its parent is gone
    writeFileSync(
      cfg,
      JSON.stringify({ servers: [{ name: 'gone', url: 'http://127.0.0.1:1/mcp' }], listen: { host: '127.0.0.1', port: 0 } }),
    );
    const pidFile = join(dir, 'pid');
    // the parent: starts the proxy detached with PARENT_ENV, writes its pid, then is killed
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `
      const { spawn } = require('node:child_process');
      const c = spawn(process.execPath, [${JSON.stringify(MCPGAUGE_BIN)}, 'proxy', '--config', ${JSON.stringify(cfg)}], { detached: true, stdio: 'ignore', env: { ...process.env, ${PARENT_ENV}: String(process.pid) } });
      require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));
      setInterval(() => {}, 1000);`,
      ],
      { stdio: 'ignore' },
    );
    const t0 = Date.now();
    let pid = 0;
    while (!pid && Date.now() - t0 < 20_000) {
      try {
        pid = Number(readFileSync(pidFile, 'utf8'));
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    assert.ok(pid > 0);
    await new Promise((r) => setTimeout(r, 3000)); // let it start
    parent.kill('SIGKILL');
    const alive = () => {
      try {
        return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
      } catch {
        return false;
      }
    };
    const until = Date.now() + 15_000;
    while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const left = alive();
    if (left) process.kill(pid, 'SIGKILL');
    assert.equal(left, false, 'the orphaned proxy is still running');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('reconnect backoff: exponential, capped at max_ms, jittered within [d/2, d], never a spin', () => {
  const r = { initial_ms: 100, max_ms: 1000, factor: 2, stable_ms: 5000, max_attempts: 0 };
  assert.equal(
    backoffDelay(r, 1, () => 1),
    100,
  );
  assert.equal(
    backoffDelay(r, 1, () => 0),
    50,
  );
  assert.equal(
    backoffDelay(r, 3, () => 1),
    400,
  );
  assert.equal(
    backoffDelay(r, 30, () => 1),
    1000,
  );
  assert.equal(
    backoffDelay(r, 30, () => 0),
    500,
  );
  const draws = new Set(Array.from({ length: 50 }, () => backoffDelay(r, 10)));
  assert.ok(draws.size > 10, 'jittered');
  for (const d of draws) assert.ok(d >= 500 && d <= 1000);
  assert.equal(
    backoffDelay({ ...r, initial_ms: 1, max_ms: 1 }, 5, () => 0),
    50,
  );
});
