/**
 * scripts/lib/test-bundle.mjs, the way scripts/test.mjs runs test files: a bundle runs under plain
 * node (no tsx) and every bundled module keeps its source file's import.meta; a file that imports a
 * .ts path computed at run time becomes an entry that registers tsx and runs the source; a bundle
 * path maps back to its test file; the bundles sort in the order given (node's runner starts them by path); a run's folder is removed, and a killed run's folder is swept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
// @ts-expect-error the runner's helper is plain JS without types
import { bundleTests, removeTestBundles, sourceOfBundle, testBundleDir } from '../../scripts/lib/test-bundle.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const FIX = join(ROOT, 'test', 'build', 'bundle-fixtures');

test('test bundles: plain node runs them with the sources import.meta, computed .ts imports go through tsx, paths map back', async () => {
  // a folder of a run that was killed (no such process) is swept by the next bundling
  const stale = join(ROOT, 'node_modules', '.cache', 'mcpgauge-test-bundles', '999999999');
  mkdirSync(stale, { recursive: true });
  try {
    const [meta, computed] = (await bundleTests(ROOT, [
      'test/build/bundle-fixtures/meta.fixture.ts',
      'test/build/bundle-fixtures/computed.fixture.ts',
    ])) as string[];
    assert.equal(existsSync(stale), false, 'the dead run folder is swept');
    assert.ok(meta.startsWith(`${testBundleDir(ROOT)}/`) && meta.endsWith('.mjs'), meta);
    // node's runner sorts the paths it is given: the bundles sort in the order the files were given
    // (meta before computed here, the reverse of their names)
    assert.deepEqual([computed, meta].sort(), [meta, computed]);
    assert.doesNotMatch(readFileSync(meta, 'utf8'), /from "\.\/where/, 'the helper is bundled in');

    const run = (f: string) => spawnSync(process.execPath, ['--enable-source-maps', f], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    const r = run(meta);
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout) as { self: string; helper: { dirname: string; filename: string; url: string } };
    assert.equal(got.self, join(FIX, 'meta.fixture.ts'));
    assert.deepEqual(got.helper, { dirname: FIX, filename: join(FIX, 'where.ts'), url: `file://${join(FIX, 'where.ts')}` });

    assert.match(readFileSync(computed, 'utf8'), /tsx\/esm\/api/, 'a computed .ts import runs from the sources through tsx');
    const c = run(computed);
    assert.equal(c.status, 0, c.stderr);
    assert.deepEqual(JSON.parse(c.stdout), { helper: join(FIX, 'where.ts') });

    assert.equal(sourceOfBundle(ROOT, meta), join(ROOT, 'test/build/bundle-fixtures/meta.fixture.ts'));
    assert.equal(sourceOfBundle(ROOT, `file://${meta}`), join(ROOT, 'test/build/bundle-fixtures/meta.fixture.ts'));
    assert.equal(sourceOfBundle(ROOT, '/elsewhere/x.mjs'), '/elsewhere/x.mjs');
  } finally {
    removeTestBundles(ROOT);
  }
  assert.equal(existsSync(testBundleDir(ROOT)), false, "the run's folder is removed");
});

test('a helper script a test starts runs as its bundle (no tsx), keeps its import.meta, and its folder goes when the process exits', () => {
  // in a child process, so its exit (which removes the folder) is observed here
  const child = `
    const { scriptArgs } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'scripts', 'lib', 'test-bundle.mjs')).href)});
    const { spawnSync } = await import('node:child_process');
    const args = scriptArgs(${JSON.stringify(ROOT)}, ${JSON.stringify(join(FIX, 'meta.fixture.ts'))});
    const again = scriptArgs(${JSON.stringify(ROOT)}, ${JSON.stringify(join(FIX, 'meta.fixture.ts'))});
    const computed = scriptArgs(${JSON.stringify(ROOT)}, ${JSON.stringify(join(FIX, 'computed.fixture.ts'))});
    const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
    process.stdout.write(JSON.stringify({ args, same: again === args, computed, out: r.stdout, err: r.stderr, pid: process.pid }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', child], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as { args: string[]; same: boolean; computed: string[]; out: string; err: string; pid: number };
  assert.equal(got.args.includes('tsx'), false, got.args.join(' '));
  assert.match(got.args.at(-1)!, /\/scripts\/test\/build\/bundle-fixtures\/meta\.fixture\.mjs$/);
  assert.ok(got.same, 'bundled once per process');
  assert.deepEqual(got.computed, ['--import', 'tsx', join(FIX, 'computed.fixture.ts')], 'a computed import runs through tsx');
  assert.equal(JSON.parse(got.out).self, join(FIX, 'meta.fixture.ts'), got.err);
  assert.equal(existsSync(join(ROOT, 'node_modules', '.cache', 'mcpgauge-test-bundles', String(got.pid))), false, 'removed at exit');
});
