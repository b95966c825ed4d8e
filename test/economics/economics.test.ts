import { test } from 'node:test';
import assert from 'node:assert/strict';
import { breakEven, breakEvenCurve } from '../../pipeline/economics/breakeven.ts';
import { sessionEstimates, roundHalfUp } from '../../pipeline/economics/session.ts';
import { UserError } from '../../pipeline/types.ts';

test('break-even: research example (340320 - 12000) / 8640 = 38.0, inputs echoed, computed', () => {
  const r = breakEven({ fullMenuTokens: 340320, discoveryMenuTokens: 12000, meanResponseTokens: 8640 });
  assert.equal(r.break_even_calls, 38);
  assert.equal(r.no_break_even, false);
  assert.equal(r.reason, undefined);
  assert.equal(r.full_menu_tokens, 340320);
  assert.equal(r.discovery_menu_tokens, 12000);
  assert.equal(r.mean_response_tokens, 8640);
  assert.deepEqual(Object.keys(r).sort(), [
    'break_even_calls',
    'discovery_menu_tokens',
    'full_menu_tokens',
    'mean_response_tokens',
    'no_break_even',
    'provenance',
  ]);
  assert.equal(r.provenance, 'computed');
});

test('break-even is not rounded', () => {
  assert.equal(breakEven({ fullMenuTokens: 1000, discoveryMenuTokens: 0, meanResponseTokens: 300 }).break_even_calls, 1000 / 300);
});

test('no break-even when the numerator is 0 or negative, even with mean 0', () => {
  const zero = breakEven({ fullMenuTokens: 500, discoveryMenuTokens: 500, meanResponseTokens: 100 });
  assert.equal(zero.no_break_even, true);
  assert.equal(zero.break_even_calls, null);
  assert.match(zero.reason ?? '', /as much as the full menu/);
  const neg = breakEven({ fullMenuTokens: 400, discoveryMenuTokens: 900, meanResponseTokens: 0 });
  assert.equal(neg.no_break_even, true);
  assert.equal(neg.break_even_calls, null);
  assert.match(neg.reason ?? '', /costs more than the full menu/);
});

test('break-even: positive numerator with mean <= 0, or a non-finite input, is a UserError', () => {
  assert.throws(
    () => breakEven({ fullMenuTokens: 1000, discoveryMenuTokens: 10, meanResponseTokens: 0 }),
    (e: unknown) => e instanceof UserError && /meanResponseTokens must be > 0/.test(e.message),
  );
  assert.throws(
    () => breakEven({ fullMenuTokens: 1000, discoveryMenuTokens: 10, meanResponseTokens: -5 }),
    /meanResponseTokens must be > 0/,
  );
  assert.throws(
    () => breakEven({ fullMenuTokens: Number.NaN, discoveryMenuTokens: 10, meanResponseTokens: 5 }),
    /fullMenuTokens must be a finite number, got NaN/,
  );
  assert.throws(
    () => breakEven({ fullMenuTokens: 100, discoveryMenuTokens: '10' as unknown as number, meanResponseTokens: 5 }),
    /discoveryMenuTokens must be a finite number, got "10"/,
  );
  assert.throws(
    () => breakEven({ fullMenuTokens: 100, discoveryMenuTokens: 10, meanResponseTokens: Infinity }),
    /meanResponseTokens must be a finite number/,
  );
  assert.throws(() => breakEven({ fullMenuTokens: -1, discoveryMenuTokens: 10, meanResponseTokens: 5 }), /fullMenuTokens must be >= 0/);
});

test('session estimates: research values (menu 1200, mean 8640, retry 0)', () => {
  const rows = sessionEstimates({ menuTokens: 1200, meanResponseTokens: 8640, retryRate: 0 });
  assert.deepEqual(
    rows.map((r) => r.calls_per_session),
    [1, 3, 5, 10],
  );
  assert.deepEqual(
    rows.map((r) => r.estimated_tokens),
    [9840, 27120, 44400, 87600],
  );
  for (const r of rows) {
    assert.equal(r.provenance, 'estimated');
    assert.equal(r.retry_rate, 0);
  }
});

test('session estimates: toon retry 0.05, mean 7000', () => {
  const rows = sessionEstimates({ menuTokens: 1200, meanResponseTokens: 7000, retryRate: 0.05 });
  assert.deepEqual(
    rows.map((r) => r.estimated_tokens),
    [8550, 23250, 37950, 74700],
  );
  assert.equal(rows[0].retry_rate, 0.05);
});

test('session estimates: round half up, custom calls, bad input', () => {
  assert.equal(roundHalfUp(2.5), 3);
  assert.equal(roundHalfUp(3.4999), 3);
  assert.equal(roundHalfUp(7350.000000000001), 7350);
  const rows = sessionEstimates({ menuTokens: 0.5, meanResponseTokens: 1, retryRate: 0, calls: [0, 2] });
  assert.deepEqual(
    rows.map((r) => [r.calls_per_session, r.estimated_tokens]),
    [
      [0, 1],
      [2, 3],
    ],
  );
  assert.throws(() => sessionEstimates({ menuTokens: 1, meanResponseTokens: 1, retryRate: -0.1 }), /retryRate must be >= 0/);
  assert.throws(() => sessionEstimates({ menuTokens: 1, meanResponseTokens: 1, retryRate: 1.5 }), /retryRate must be in \[0, 1\], got 1.5/);
  assert.throws(
    () => sessionEstimates({ menuTokens: 1, meanResponseTokens: 1, retryRate: 0, calls: [1.5] }),
    /calls must hold integers >= 0, got 1.5/,
  );
  assert.throws(() => sessionEstimates({ menuTokens: 1, meanResponseTokens: 1, retryRate: 0, calls: [] }), /non-empty/);
});

test('break-even curve: lines cross at the break-even point', () => {
  const c = breakEvenCurve({ fullMenuTokens: 10000, discoveryMenuTokens: 1000, meanResponseTokens: 900 });
  assert.equal(c.break_even.break_even_calls, 10);
  assert.equal(c.points.length, 21); // default: 0..ceil(2 x 10)
  assert.deepEqual(c.points[0], { calls: 0, full_menu_tokens: 10000, discovery_tokens: 1000 });
  assert.deepEqual(c.points[10], { calls: 10, full_menu_tokens: 10000, discovery_tokens: 10000 });
  assert.equal(c.points[20].discovery_tokens, 19000);
  assert.equal(c.provenance, 'computed');
  const fixed = breakEvenCurve({ fullMenuTokens: 100, discoveryMenuTokens: 200, meanResponseTokens: 50, maxCalls: 3 });
  assert.equal(fixed.break_even.no_break_even, true);
  assert.deepEqual(
    fixed.points.map((p) => p.discovery_tokens),
    [200, 250, 300, 350],
  );
  assert.throws(
    () => breakEvenCurve({ fullMenuTokens: 1, discoveryMenuTokens: 0, meanResponseTokens: 1, maxCalls: 0 }),
    /maxCalls must be an integer/,
  );
});

test('menu savings: 100 * (full - menu) / full, null for an empty full menu', async () => {
  const { menuSavingsPct } = await import('../../pipeline/economics/savings.ts');
  assert.equal(menuSavingsPct(200, 50), 75);
  assert.equal(menuSavingsPct(100, 130), -30);
  assert.equal(menuSavingsPct(0, 5), null);
});

test('the sampled curve of a stored break-even row: ~20 steps up to twice the break-even, at least 20 calls', async () => {
  const { sampledCurveOfRow } = await import('../../pipeline/economics/breakeven.ts');
  const pts = sampledCurveOfRow({ full_menu_tokens: 1000, discovery_menu_tokens: 100, mean_response_tokens: 30, break_even_calls: 30 });
  assert.deepEqual(
    pts.map((p) => p.calls),
    [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60],
  );
  assert.deepEqual(pts[10], { calls: 30, full_menu_tokens: 1000, discovery_tokens: 1000 });
  assert.equal(
    sampledCurveOfRow({ full_menu_tokens: 10, discovery_menu_tokens: 20, mean_response_tokens: 1, break_even_calls: null }).length,
    21,
  );
});
