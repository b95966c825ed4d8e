/**
 * Progress on a first run (issue 31): scripts/build.mjs says when tsc starts and when dist/ is
 * done, on stderr, the same with or without a TTY, and nothing when dist/ is already current.
 * The real script on a tiny copy of the tree (its own tsconfigs and package.json, two sources), so
 * the compile takes a second instead of the real tree's ~45 s, and the repo's dist/ is not touched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../pipeline/constants.ts';

// the heartbeat's period: out of the way (10 min) unless a case asks for one
function build(root: string, heartbeatMs = 600_000): { code: number | null; stdout: string; lines: string[] } {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, MCPGAUGE_HEARTBEAT_MS: String(heartbeatMs) },
  });
  return { code: r.status, stdout: r.stdout, lines: r.stderr.split('\n').filter(Boolean) };
}

test('build: a start line before tsc and an end line with the time; silent when dist/ is current', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpgauge-buildprog-'));
  try {
    mkdirSync(join(root, 'scripts', 'lib'), { recursive: true });
    mkdirSync(join(root, 'bin'), { recursive: true });
    for (const f of [
      'scripts/build.mjs',
      'scripts/lib/build-hash.mjs',
      'scripts/lib/bundle.mjs',
      'scripts/lib/heartbeat.mjs',
      // bundle.mjs takes the compile cache's folder name from the loader
      'bin/dist-entry.mjs',
      'tsconfig.json',
      'tsconfig.build.json',
      'package.json',
    ])
      copyFileSync(join(REPO_ROOT, f), join(root, f));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'));
    mkdirSync(join(root, 'pipeline'));
    mkdirSync(join(root, 'arms'));
    writeFileSync(join(root, 'pipeline', 'one.ts'), 'export const one: number = 1;\n');
    writeFileSync(join(root, 'arms', 'two.ts'), "import { one } from '../pipeline/one.ts';\nexport const two = one + 1;\n");

    const first = build(root);
    assert.equal(first.code, 0, first.lines.join('\n'));
    assert.equal(first.stdout, '', 'progress goes to stderr, stdout stays clean');
    assert.equal(first.lines[0], 'build: compiling pipeline/ and arms/ to dist/ (tsc) ...');
    assert.match(first.lines.at(-1)!, /^build: dist\/ compiled in \d+\.\d s$/);
    assert.equal(first.lines.length, 2, first.lines.join('\n'));
    assert.ok(existsSync(join(root, 'dist', 'arms', 'two.js')));

    // current: a no-op, no line at all
    const again = build(root);
    assert.equal(again.code, 0);
    assert.deepEqual(again.lines, []);

    // a source changed: both lines again
    writeFileSync(join(root, 'pipeline', 'one.ts'), 'export const one: number = 11;\n');
    const changed = build(root);
    assert.equal(changed.code, 0, changed.lines.join('\n'));
    assert.equal(changed.lines[0], 'build: compiling pipeline/ and arms/ to dist/ (tsc) ...');
    assert.match(changed.lines.at(-1)!, /^build: dist\/ compiled in \d+\.\d s$/);

    // tsc is silent while it works: with a short period the heartbeat fills the middle
    writeFileSync(join(root, 'pipeline', 'one.ts'), 'export const one: number = 111;\n');
    const beating = build(root, 20);
    assert.equal(beating.code, 0, beating.lines.join('\n'));
    assert.equal(beating.lines[0], 'build: compiling pipeline/ and arms/ to dist/ (tsc) ...');
    assert.match(beating.lines.at(-1)!, /^build: dist\/ compiled in \d+\.\d s$/);
    const middle = beating.lines.slice(1, -1);
    assert.ok(middle.length >= 1, `a heartbeat line while tsc ran: ${beating.lines.join(' | ')}`);
    for (const l of middle) assert.match(l, /^build: tsc: still running \(\d+ s\)$/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('scripts/lib/heartbeat.mjs as a command (the Makefile wraps npm ci in it): lines while it runs, the exit code passed through', () => {
  const hb = join(REPO_ROOT, 'scripts', 'lib', 'heartbeat.mjs');
  const env = { ...process.env, MCPGAUGE_HEARTBEAT_MS: '20' };
  const slow = spawnSync(process.execPath, [hb, 'deps: npm ci', '--', process.execPath, '-e', 'setTimeout(() => process.exit(3), 300)'], {
    encoding: 'utf8',
    env,
    timeout: 60_000,
  });
  assert.equal(slow.status, 3, slow.stderr);
  const lines = slow.stderr.split('\n').filter(Boolean);
  assert.ok(lines.length >= 1, 'a heartbeat line while the command ran');
  for (const l of lines) assert.match(l, /^deps: npm ci: still running \(\d+ s\)$/);
  const fast = spawnSync(process.execPath, [hb, 'x', '--', process.execPath, '-e', '0'], {
    encoding: 'utf8',
    env: { ...process.env, MCPGAUGE_HEARTBEAT_MS: '600000' },
  });
  assert.equal(fast.status, 0);
  assert.equal(fast.stderr, '', 'a short phase prints nothing');
  const bad = spawnSync(process.execPath, [hb, 'x'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
});

test('pipeline/util/heartbeat.ts: a line per period while the phase runs, none after stop()', async () => {
  const { heartbeat } = await import('../../pipeline/util/heartbeat.ts');
  const lines: string[] = [];
  const stop = heartbeat((l) => lines.push(l), 'live: LAP venv: building', 15);
  await new Promise((r) => setTimeout(r, 120));
  stop();
  const n = lines.length;
  assert.ok(n >= 1, 'lines while it ran');
  for (const l of lines) assert.match(l, /^live: LAP venv: building: still running \(\d+ s\)$/);
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(lines.length, n, 'nothing after stop()');
});
