/** Citations that hold: every check's spec URL names a page and section anchor recorded for its revision. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anchorProblem, loadAnchors } from '../../pipeline/comply/judge/anchors.ts';
import { CATALOG } from '../../pipeline/comply/checks/index.ts';

const list = loadAnchors();

describe('spec anchors (datasets/spec/anchors.json)', () => {
  it('the list says where it comes from and when', () => {
    assert.match(list.retrieved, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(list.source.length > 40, 'source');
    assert.deepEqual(Object.keys(list.revisions).sort(), ['2025-11-25', '2026-07-28']);
  });
  it('every check cites a page and anchor that exist in the named revision', () => {
    const bad = CATALOG.map((c) => [c.meta.id, c.meta.spec.url, anchorProblem(c.meta.spec.url, list)] as const).filter(
      ([, , p]) => p !== null,
    );
    assert.deepEqual(
      bad.map(([id, url, p]) => `${id}: ${url}: ${p}`),
      [],
    );
  });
  it('the checker refuses what is not in the list (e.g. 2025-11-25 basic#error-codes, which that revision does not have)', () => {
    const base = 'https://modelcontextprotocol.io/specification/';
    assert.match(anchorProblem(`${base}2025-11-25/basic#error-codes`, list)!, /not a section/);
    assert.equal(anchorProblem(`${base}2026-07-28/basic/index#error-codes`, list), null);
    assert.match(anchorProblem(`${base}2025-11-25/server/nope#x`, list)!, /page server\/nope/);
    assert.match(anchorProblem(`${base}2024-11-05/basic`, list)!, /revision/);
  });
});
