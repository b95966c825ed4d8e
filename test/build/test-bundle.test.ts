/**
 * scripts/lib/test-bundle.mjs, the way scripts/test.mjs runs test files: a bundle runs under plain
 * node (no tsx) and every bundled module keeps its source file's import.meta; a file that imports a
 * .ts path computed at run time becomes an entry that registers tsx and runs the source; a bundle
 * path maps back to its test file; a run's folder is removed, and a killed run's folder is swept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
