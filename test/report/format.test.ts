// fmtInt / fmtNum print en-US digits without Intl (pipeline/report/render.ts): the text must be
// the one Intl.NumberFormat('en-US') gives, for the edges (-0, ties, grouping, huge, non-finite)
// and for a seeded spread of values at each digit count the renderer uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtInt, fmtNum } from '../../pipeline/report/render.ts';

const intlInt = (x: number) => Math.round(x).toLocaleString('en-US');
const formats = [0, 1, 2, 3].map((d) => new Intl.NumberFormat('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }));
const intlNum = (x: number, d: number) => (Number.isInteger(x) && Math.abs(x) >= 1000 ? intlInt(x) : formats[d].format(x));

const EDGES = [
  0,
  -0,
  0.5,
  -0.5,
  1.5,
  2.5,
  -2.5,
  0.05,
  0.15,
  0.25,
  0.35,
  1.005,
  -0.04,
  -0.4,
  -0.6,
  999,
  999.5,
  999.95,
  1000,
  1000.5,
  -1000,
  12345.678,
  -12345.678,
  1234567,
  1e6 - 0.5,
  99999999.99,
  2 ** 53,
  1e20,
  1e21,
  1.5e21,
  -1e22,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  Number.EPSILON,
  Infinity,
  -Infinity,
  NaN,
];

test('fmtInt and fmtNum print what Intl en-US prints, edges included', () => {
  for (const x of EDGES) {
    assert.equal(fmtInt(x), intlInt(x), `fmtInt(${x})`);
    for (const d of [0, 1, 2, 3]) assert.equal(fmtNum(x, d), intlNum(x, d), `fmtNum(${x}, ${d})`);
  }
});

test('fmtInt and fmtNum print what Intl en-US prints over 20,000 seeded values', () => {
  let seed = 0x2545f491;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let i = 0; i < 20_000; i++) {
    const mag = 10 ** Math.floor(rnd() * 12 - 4);
    const x = (rnd() - 0.3) * mag;
    const r = i % 3 === 0 ? Math.round(x * 1000) / 1000 : x;
    assert.equal(fmtInt(r), intlInt(r), `fmtInt(${r})`);
    for (const d of [1, 2, 3]) assert.equal(fmtNum(r, d), intlNum(r, d), `fmtNum(${r}, ${d})`);
  }
});
