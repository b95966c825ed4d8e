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

function build(root: string): { code: number | null; stdout: string; lines: string[] } {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, lines: r.stderr.split('\n').filter(Boolean) };
}

test('build: a start line before tsc and an end line with the time; silent when dist/ is current', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpgauge-buildprog-'));
  try {
    mkdirSync(join(root, 'scripts', 'lib'), { recursive: true });
    for (const f of [
      'scripts/build.mjs',
      'scripts/lib/build-hash.mjs',
      'scripts/lib/bundle.mjs',
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
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
