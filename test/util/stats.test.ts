/** wilson95: the Wilson score interval at 95 % against values computed by hand from its formula. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wilson95 } from '../../pipeline/util/stats.ts';

const near = (got: [number, number], want: [number, number], what: string) => {
  assert.ok(
    Math.abs(got[0] - want[0]) < 5e-4 && Math.abs(got[1] - want[1]) < 5e-4,
    `${what}: got [${got.join(', ')}], want [${want.join(', ')}]`,
  );
};

test('wilson95 matches known values (z = 1.96)', () => {
  near(wilson95(5, 5), [0.5655, 1], '5/5');
  near(wilson95(0, 5), [0, 0.4345], '0/5');
  near(wilson95(9, 10), [0.5958, 0.9821], '9/10');
  near(wilson95(6, 9), [0.3542, 0.8794], '6/9');
  near(wilson95(2, 3), [0.2077, 0.9385], '2/3');
  near(wilson95(3, 3), [0.4385, 1], '3/3');
  near(wilson95(50, 100), [0.4038, 0.5962], '50/100');
});

test('wilson95: exact ends, nothing observed, and one failure always moves the upper bound below 1', () => {
  assert.equal(wilson95(7, 7)[1], 1);
  assert.equal(wilson95(0, 7)[0], 0);
  assert.deepEqual(wilson95(0, 0), [0, 1]);
  for (let n = 1; n <= 50; n++) {
    const [lo, hi] = wilson95(n - 1, n);
    assert.ok(hi < 1 && lo >= 0 && lo < hi, `${n - 1}/${n}: [${lo}, ${hi}]`);
  }
  assert.throws(() => wilson95(4, 3), RangeError);
  assert.throws(() => wilson95(1.5, 3), RangeError);
});
