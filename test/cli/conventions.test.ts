/**
 * Where mcpgauge writes (issue 30): results into ./results of the working directory, caches into
 * `.cache/` of a source checkout, or `$XDG_CACHE_HOME/mcpgauge` (default ~/.cache/mcpgauge) for an
 * installed package; `$MCPGAUGE_CACHE_DIR` wins. The installed case end to end is in
 * test/build/pack.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cacheRoot, CACHE_ROOT, DEFAULT_BENCH_OUT, INSTALLED, REPO_ROOT } from '../../pipeline/constants.ts';

test('cache root: env override, checkout, installed with and without XDG_CACHE_HOME', () => {
  assert.equal(cacheRoot({ MCPGAUGE_CACHE_DIR: '/tmp/x' }, true), '/tmp/x');
  assert.equal(cacheRoot({}, false), join(REPO_ROOT, '.cache'));
  assert.equal(cacheRoot({ XDG_CACHE_HOME: '/var/cache/u', HOME: '/home/u' }, true), '/var/cache/u/mcpgauge');
  assert.equal(cacheRoot({ HOME: '/home/u' }, true), '/home/u/.cache/mcpgauge');
  // a relative XDG_CACHE_HOME is invalid by the XDG rules and ignored
  assert.equal(cacheRoot({ XDG_CACHE_HOME: 'rel', HOME: '/home/u' }, true), '/home/u/.cache/mcpgauge');
});

test('this checkout is not an installed package; results default relative to the working directory', () => {
  assert.equal(INSTALLED, false);
  if (!process.env.MCPGAUGE_CACHE_DIR) assert.equal(CACHE_ROOT, join(REPO_ROOT, '.cache'));
  assert.equal(DEFAULT_BENCH_OUT, 'results/discovery');
});
