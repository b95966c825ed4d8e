import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitScale, logLogFit } from '../../pipeline/scale/fit.ts';
import type { ScalePoint } from '../../pipeline/report/types.ts';

test('logLogFit recovers the exponent of a power law and reports how well it fits', () => {
  const pts = [10, 100, 1000, 5000].map((x) => ({ x, y: 3 * x ** 1.5 }));
  const f = logLogFit(pts)!;
  assert.equal(f.exponent, 1.5);
  assert.equal(f.r2, 1);
  assert.equal(f.n, 4);
  // noise lowers R²; a flat series has exponent 0
  const noisy = logLogFit([
    { x: 10, y: 10 },
    { x: 100, y: 300 },
    { x: 1000, y: 2000 },
  ])!;
  assert.ok(noisy.r2 < 1 && noisy.exponent > 0.9 && noisy.exponent < 1.5, JSON.stringify(noisy));
  assert.equal(
    logLogFit([
      { x: 10, y: 7 },
      { x: 100, y: 7 },
    ])!.exponent,
    0,
  );
  // not enough usable points: no fit (zero and negative values cannot go on a log scale)
  assert.equal(logLogFit([{ x: 10, y: 5 }]), null);
  assert.equal(
    logLogFit([
      { x: 10, y: 0 },
      { x: 100, y: 5 },
    ]),
    null,
  );
  assert.equal(
    logLogFit([
      { x: 10, y: 5 },
      { x: 10, y: 6 },
    ]),
    null,
  );
});

test('fitScale: one computed fit per system, figure and tokenizer; failed points left out', () => {
  const p = (system: string, n: number, menu: number, ok = true): ScalePoint => ({
    system,
    catalog_size: n,
    upstream_tools: n,
    ok,
    wall_ms: 1,
    errors: 0,
    menu_tokens: { cl100k_base: menu },
  });
  const fits = fitScale([p('a', 10, 100), p('a', 100, 1000), p('a', 1000, 5, false), p('b', 10, 50)], ['a', 'b'], ['cl100k_base']);
  assert.deepEqual(fits, [
    { system: 'a', figure: 'menu_tokens', tokenizer: 'cl100k_base', exponent: 1, r2: 1, n: 2, provenance: 'computed' },
  ]);
});
