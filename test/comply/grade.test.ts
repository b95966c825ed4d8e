/** Grading rules: 70/30 pools over evaluated checks, bands, the 50% coverage floor, security apart. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gradeOf, gradeRun, isRequired, letter } from '../../pipeline/comply/output/grade.ts';
import { CATALOG } from '../../pipeline/comply/checks/index.ts';
import type { CheckResult, Status } from '../../pipeline/comply/types.ts';

const must = CATALOG.find((c) => isRequired(c.meta) && c.meta.category !== 'security')!.meta;
const must2 = CATALOG.filter((c) => isRequired(c.meta) && c.meta.category !== 'security')[1].meta;
const viaJsonRpc = CATALOG.find((c) => c.meta.severity === 'MUST' && c.meta.basis === 'json-rpc')!.meta;
const should = CATALOG.find((c) => c.meta.severity === 'SHOULD' && c.meta.category !== 'security')!.meta;
const sec = CATALOG.find((c) => c.meta.category === 'security')!.meta;
const r = (meta: typeof must, status: Status) =>
  ({ id: meta.id, status, code: status, detail: '', meta }) as CheckResult & { meta: typeof must };
const many = (meta: typeof must, status: Status, n: number) => Array.from({ length: n }, () => r(meta, status));

describe('comply grading', () => {
  it('score = 70 x required rate + 30 x optional rate', () => {
    const g = gradeOf([...many(must, 'pass', 3), r(must, 'fail'), ...many(should, 'pass', 1), r(should, 'fail')]);
    assert.equal(g.score, Math.round(70 * 0.75 + 30 * 0.5));
    assert.equal(g.grade, 'C');
  });
  it('the cap: one failing MUST caps the letter at B, two or more at C; --no-cap keeps the plain letter', () => {
    const one = gradeOf([...many(must, 'pass', 40), r(must, 'fail'), ...many(should, 'pass', 10)]);
    assert.equal(one.score, 98);
    assert.equal(one.uncapped, 'A');
    assert.equal(one.grade, 'B');
    assert.equal(one.cap, 'B');
    assert.deepEqual(one.failingMust, [must.id]);
    const two = gradeOf([...many(must, 'pass', 40), r(must, 'fail'), r(must2, 'fail'), ...many(should, 'pass', 10)]);
    assert.equal(two.uncapped, 'A');
    assert.equal(two.grade, 'C');
    assert.deepEqual(two.failingMust, [must.id, must2.id]);
    const off = gradeOf([...many(must, 'pass', 40), r(must, 'fail'), r(must2, 'fail'), ...many(should, 'pass', 10)], { cap: false });
    assert.equal(off.grade, 'A');
    assert.equal(off.capApplied, false);
    // a cap never raises a letter
    assert.equal(gradeOf([r(must, 'fail'), r(must2, 'fail'), r(should, 'fail')]).grade, 'F');
  });
  it('a MUST via JSON-RPC (or inferred) is weighed as SHOULD and does not cap', () => {
    const g = gradeOf([...many(must, 'pass', 10), r(viaJsonRpc, 'fail'), ...many(should, 'pass', 9)]);
    assert.deepEqual(g.required, { passed: 10, evaluated: 10 });
    assert.deepEqual(g.optional, { passed: 9, evaluated: 10 });
    assert.equal(g.cap, null);
    assert.equal(g.grade, 'A');
  });
  it('bands A>=90 B>=75 C>=60 D>=40 else F', () => {
    assert.deepEqual([90, 89, 75, 74, 60, 59, 40, 39].map(letter), ['A', 'B', 'B', 'C', 'C', 'D', 'D', 'F']);
  });
  it('only evaluated checks count; not_evaluable/blocked lower coverage, not the score', () => {
    const g = gradeOf([...many(must, 'pass', 4), r(must, 'not_evaluable'), r(must, 'blocked_by'), r(must, 'not_applicable')]);
    assert.equal(g.score, 100);
    assert.equal(g.applicable, 6);
    assert.equal(g.coverage, Math.round((4 / 6) * 1000) / 1000);
  });
  it('no grade below 50% coverage', () => {
    const g = gradeOf([r(must, 'pass'), r(must, 'blocked_by'), r(must, 'blocked_by')]);
    assert.equal(g.grade, null);
    assert.equal(g.score, null);
  });
  it('an empty pool gives its weight to the other', () => {
    assert.equal(gradeOf([r(should, 'pass'), r(should, 'fail')]).score, 50);
  });
  it('security checks are graded apart from conformance', () => {
    const g = gradeRun([...many(must, 'pass', 2), r(sec, 'fail')]);
    assert.equal(g.conformance.score, 100);
    assert.equal(g.security.score, 0);
    assert.equal(g.security.grade, 'F');
  });
});
