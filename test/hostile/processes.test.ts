/**
 * Processes (issue 29, round two, item 6): the children mcpgauge starts must not outlive it or
 * their deadline.
 * - the LAP venv build at its deadline: `python -m venv` whose grandchildren ignore SIGTERM and
 *   keep writing into the temp venv (like ensurepip) -> no process of the tree left, no lock, no
 *   `.tmp` folder (also the one of a build that died earlier); SIGINT to the run mid-build: the
 *   tree ends with it, and the next build removes the lock and temp folder it left;
 * - the lap run at its deadline: a hung `python` wrapper and the child it waits for -> both gone;
 * - a venv with READY.json whose python is broken, or never answers -> rebuilt once and used;
 *   when the rebuild fails too, one reason naming both;
 * - `kill -9` of the gate while a call is in flight at a stdio fixture, and while the proxy is
 *   still starting: every process tagged with the run (the proxy, the fixtures it started) is gone
 *   within 2.5 s.
 * No PyPI: the pythons are stand-in sh scripts (helpers-processes.ts); the gate run is real.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureLapVenv, lapVenvDir, LAP_SCORE_REQUIREMENT } from '../../pipeline/live/lap_venv.ts';
import { lapSection } from '../../pipeline/live/lap.ts';
import { pidsWithEnv } from '../../pipeline/util/proc.ts';
import { BIN, REPO, testConfig } from '../gate/helpers.ts';
import {
  BROKEN_PYTHON_BODY,
  TAG_VAR,
  describePids,
  fakeBuilderPython,
  goodVenvPython,
  hangingPythonBody,
  newTag,
  sleep,
  sweep,
  taggedPids,
  within,
  writeScript,
} from './helpers-processes.ts';

const CL100K_URL = 'https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken';

/** a pid that was just in use and is gone now */
async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => c.once('exit', r));
  return c.pid!;
}

/** a venv in `root` with READY.json (this requirement) and the tokenizer file, whose python runs `pythonBody` */
function readyVenv(root: string, pythonBody: string): string {
  const dir = lapVenvDir(root);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  mkdirSync(join(dir, 'tiktoken-cache'), { recursive: true });
  writeFileSync(join(dir, 'tiktoken-cache', createHash('sha1').update(CL100K_URL).digest('hex')), 'ranks\n');
  writeFileSync(
    join(dir, 'READY.json'),
    JSON.stringify({ requirement: LAP_SCORE_REQUIREMENT, python: '3.12', built_at: '2026-01-01T00:00:00.000Z' }) + '\n',
  );
  writeScript(join(dir, 'bin', 'python'), pythonBody);
  return dir;
}

test('LAP venv build at its deadline: the whole tree of `python -m venv` ends; no lock, no .tmp folder left (nor one of an earlier dead build)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-proc-'));
  const tag = newTag();
  try {
    const root = join(dir, 'venvs');
    mkdirSync(root);
    const dead = await deadPid();
    // a build that died earlier left its lock and its temp folder
    writeFileSync(join(root, '.lap-score-0.8.0.lock'), String(dead));
    mkdirSync(join(root, `.lap-score-0.8.0.tmp-${dead}-0badc0de`, 'bin'), { recursive: true });
    const python = fakeBuilderPython(dir, tag, 'hang');
    const t0 = Date.now();
    const r = await within(ensureLapVenv({ root, python, timeoutMs: 2500, env: { ...process.env, [TAG_VAR]: tag } }), 20_000);
    const ms = Date.now() - t0;
    if (r === 'timedOut') assert.fail(`ensureLapVenv still waits 20 s after its 2.5 s deadline; running: ${describePids(taggedPids(tag))}`);
    await sleep(600); // a surviving grandchild would write the temp venv again by now
    const left = taggedPids(tag);
    assert.deepEqual(left, [], `left running after the deadline:\n${describePids(left)}`);
    assert.deepEqual(readdirSync(root), [], "no lock, no temp venv (this build's or the dead one's)");
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /^skipped: .*python3-hang -m venv failed: timeout after \d+ ms/);
    assert.ok(ms < 2500 + 5000, `returned after ${ms} ms`);
  } finally {
    sweep(tag);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("SIGINT to a run that is building the LAP venv ends the build's whole tree; the next build removes its lock and temp folder", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-proc-'));
  const tag = newTag();
  try {
    const root = join(dir, 'venvs');
    const python = fakeBuilderPython(dir, tag, 'hang');
    const script = join(dir, 'build.mts');
    writeFileSync(
      script,
      `import { ensureLapVenv } from ${JSON.stringify(pathToFileURL(join(REPO, 'pipeline', 'live', 'lap_venv.ts')).href)};\n` +
        `await ensureLapVenv({ root: ${JSON.stringify(root)}, python: ${JSON.stringify(python)}, timeoutMs: 120000, env: { ...process.env, ${TAG_VAR}: ${JSON.stringify(tag)} } });\n`,
    );
    const parent = spawn(process.execPath, ['--import', 'tsx', script], { cwd: REPO, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((r) => parent.once('exit', (_c, sig) => r(sig)));
    const t0 = Date.now();
    while (taggedPids(tag).length < 3 && Date.now() - t0 < 30_000) await sleep(50); // python -m venv and its two grandchildren
    assert.ok(taggedPids(tag).length >= 3, `the build runs: ${describePids(taggedPids(tag))}`);
    parent.kill('SIGINT');
    assert.equal(await exited, 'SIGINT', 'the run still ends by its signal');
    await sleep(600);
    const left = taggedPids(tag);
    assert.deepEqual(left, [], `left running after SIGINT to the run:\n${describePids(left)}`);
    assert.ok(
      readdirSync(root).some((f) => f.endsWith('.lock')) && readdirSync(root).some((f) => f.includes('.tmp-')),
      'the killed run left its lock and temp folder',
    );
    // the next build takes the stale lock over and removes the dead build's temp folder
    const r = await ensureLapVenv({ root, python: fakeBuilderPython(dir, newTag(), 'fail') });
    assert.equal(r.ok, false);
    assert.deepEqual(readdirSync(root), []);
  } finally {
    sweep(tag);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lap run at its deadline: a hung python wrapper and the child it waits for are both stopped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-proc-'));
  const tag = newTag();
  try {
    const wrapper = writeScript(join(dir, 'python-wrapper'), hangingPythonBody(tag));
    const t0 = Date.now();
    const r = await within(
      lapSection({ mode: 'auto', lapCommand: wrapper, httpUrl: 'http://127.0.0.1:9/mcp', inHouseMenuTokens: 1000, timeoutMs: 1500 }),
      15_000,
    );
    const ms = Date.now() - t0;
    if (r === 'timedOut') assert.fail(`lapSection still waits 15 s after its 1.5 s deadline; running: ${describePids(taggedPids(tag))}`);
    const left = taggedPids(tag);
    assert.deepEqual(left, [], `left running after the deadline:\n${describePids(left)}`);
    assert.equal(r.executed, false);
    assert.match(r.skip_reason!, /^lap failed: no answer within 1500 ms \(lap and what it started were stopped\)$/);
    assert.ok(ms < 1500 + 4000, `returned after ${ms} ms`);
  } finally {
    sweep(tag);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a LAP venv with READY.json whose python is broken is rebuilt once and used', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-proc-'));
  try {
    const root = join(dir, 'venvs');
    const venv = readyVenv(root, BROKEN_PYTHON_BODY);
    const python = fakeBuilderPython(dir, newTag(), 'good', goodVenvPython(dir));
    const lines: string[] = [];
    const r = await lapSection({
      mode: 'auto',
      httpUrl: 'http://127.0.0.1:9/mcp',
      inHouseMenuTokens: 1000,
      venv: { root, python },
      log: (l) => lines.push(l),
      timeoutMs: 20_000,
    });
    assert.equal(r.executed, true, r.skip_reason);
    assert.equal(r.menu_tokens, 900);
    assert.ok(
      lines.some((l) => /did not answer `python -c import lap` \(Fatal Python error: init_fs_encoding.*\): rebuilding it once$/.test(l)),
      lines.join('\n'),
    );
    assert.equal(
      readFileSync(join(venv, 'bin', 'python'), 'utf8'),
      readFileSync(join(dir, 'good-venv-python'), 'utf8'),
      'the rebuilt venv is in place',
    );
    assert.deepEqual(readdirSync(root), ['lap-score-0.8.0'], 'no lock, no temp venv');
    // the next run uses it as it is
    const again = await ensureLapVenv({ root, python: join(dir, 'no-such-python') });
    assert.equal(again.ok && again.built, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a LAP venv whose python never answers the smoke command is rebuilt; nothing of the hung one is left', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-proc-'));
  const tag = newTag();
  try {
    const root = join(dir, 'venvs');
    readyVenv(root, hangingPythonBody(tag));
    const python = fakeBuilderPython(dir, newTag(), 'good', goodVenvPython(dir));
    const r = await within(
      lapSection({
        mode: 'auto',
        httpUrl: 'http://127.0.0.1:9/mcp',
        inHouseMenuTokens: 1000,
        venv: { root, python, smokeTimeoutMs: 1500 },
        timeoutMs: 3000,
      }),
      20_000,
    );
    if (r === 'timedOut') assert.fail(`still waiting after 20 s; running: ${describePids(taggedPids(tag))}`);
    assert.equal(r.executed, true, r.skip_reason);
    const left = taggedPids(tag);
    assert.deepEqual(left, [], `the hung python's tree is still running:\n${describePids(left)}`);
  } finally {
    sweep(tag);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a broken LAP venv whose rebuild fails too: one reason naming both, nothing half-built left', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-proc-'));
  try {
    const root = join(dir, 'venvs');
    readyVenv(root, BROKEN_PYTHON_BODY);
    const python = fakeBuilderPython(dir, newTag(), 'fail');
    const r = await ensureLapVenv({ root, python });
    assert.equal(r.ok, false);
    const reason = (r as { reason: string }).reason;
    assert.match(
      reason,
      /^skipped: the LAP venv \S+lap-score-0\.8\.0 did not answer `python -c import lap` \(Fatal Python error: init_fs_encoding[^)]*\) and rebuilding it failed: \S+python3-fail -m venv failed: Error: \[Errno 28\] No space left on device: '[^']+' \(Debian\/Ubuntu: apt-get install python3-venv\)$/,
    );
    assert.equal(reason.split('\n').length, 1);
    assert.deepEqual(readdirSync(root), [], 'the broken venv is gone (the next run builds afresh), no lock, no temp venv');
    // offline: never rebuilt, said so
    readyVenv(root, BROKEN_PYTHON_BODY);
    const off = await ensureLapVenv({ root, python, offline: true });
    assert.match(
      (off as { reason: string }).reason,
      /^skipped: the LAP venv \S+ did not answer `python -c import lap` \(Fatal Python error: [^)]*\) and MCPGAUGE_LAP=offline forbids rebuilding it$/,
    );
    assert.ok(existsSync(join(lapVenvDir(root), 'READY.json')), 'offline leaves the venv as it was');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** when to `kill -9` the gate: the stderr line to wait for, then how long after it */
const KILL_POINTS = [
  // the hang step's 10-minute `slow` call is in flight at the stdio fixture (the proxy call timeout is raised)
  { when: 'while a call is in flight at a stdio fixture', marker: / 5 concurrency /, after: 2000, minTagged: 4 },
  // the proxy is still starting its upstreams
  { when: 'while the proxy starts its upstreams', marker: /stdio\/2025-11-25: started/, after: 0, minTagged: 1 },
];

for (const k of KILL_POINTS) {
  test(`kill -9 of the gate ${k.when}: every child of the run exits within 2.5 s`, { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-proc-'));
    const cfg = testConfig(dir, (c) => (c.timeouts.proxy_call_timeout_ms = 60_000));
    const child = spawn(
      process.execPath,
      [
        BIN,
        'gate',
        '--config',
        cfg,
        '--out',
        join(dir, 'out'),
        '--jobs',
        '1',
        '--cells',
        'stdio/2025-11-25',
        '--no-fixture-grade',
        '--verbose',
      ],
      {
        cwd: REPO,
        env: { ...process.env, CI: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    let runId = '';
    const workDirs = new Set<string>();
    const tagged = () => pidsWithEnv('MCPGAUGE_GATE_TAG', `${runId}/`);
    try {
      const t0 = Date.now();
      while (!k.marker.test(stderr) && child.exitCode === null && Date.now() - t0 < 120_000) await sleep(25);
      assert.match(stderr, k.marker);
      runId = /run ([0-9a-f]{8}):/.exec(stderr)![1];
      const t1 = Date.now();
      while (tagged().length < k.minTagged && Date.now() - t1 < 30_000) await sleep(25);
      await sleep(k.after);
      const before = tagged();
      // the gate's work folders (a kill -9ed gate cannot remove them: this test does)
      for (const m of describePids(before).matchAll(/(\/\S*\/mcpgauge-gate-[A-Za-z0-9]+)\//g)) workDirs.add(m[1]);
      assert.ok(before.length >= k.minTagged, `the run's processes: ${describePids(before)}`);
      child.kill('SIGKILL');
      const tk = Date.now();
      let left = before;
      while (left.length > 0 && Date.now() - tk < 2500) {
        await sleep(50);
        left = tagged();
        for (const m of describePids(left).matchAll(/(\/\S*\/mcpgauge-gate-[A-Za-z0-9]+)\//g)) workDirs.add(m[1]);
      }
      assert.deepEqual(left, [], `still running ${Date.now() - tk} ms after kill -9 of the gate:\n${describePids(left)}`);
      console.log(`kill -9 of the gate ${k.when}: ${before.length} tagged processes gone within ${Date.now() - tk} ms`);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      if (runId)
        for (let i = 0; i < 3; i++)
          for (const p of tagged())
            try {
              process.kill(p, 'SIGKILL');
            } catch {
              /* gone */
            }
      await sleep(200);
      for (const w of workDirs) rmSync(w, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
