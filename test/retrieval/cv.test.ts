import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crossValidate, foldOf, CV_FOLDS } from '../../pipeline/retrieval/cv.ts';
import type { GoldenSet } from '../../pipeline/types.ts';

const N = 40;
const golden: GoldenSet = {
  format: 'mcpgauge-golden',
  corpus_version: 'c',
  version: 'g',
  queries: Array.from({ length: N }, (_, i) => ({ id: `q${i}`, query: `query ${i}`, labels: [{ tool_id: `t${i}`, relevance: 3 }] })),
} as GoldenSet;

/** A retriever that answers query i with `answer(i)` (tool ids). */
const fixed = (answer: (i: number) => string[]) => ({
  build() {},
  search: (q: string) => answer(Number(q.split(' ')[1])).map((tool_id) => ({ tool_id })),
});

test('foldOf: deterministic, seeded, every fold used', () => {
  const f = golden.queries.map((q) => foldOf(q.id));
  assert.deepEqual(
    f,
    golden.queries.map((q) => foldOf(q.id)),
  );
  assert.equal(new Set(f).size, CV_FOLDS);
  assert.notDeepEqual(
    f,
    golden.queries.map((q) => foldOf(q.id, 12345)),
  );
});

test('cross-validation picks the better grid point on training folds and scores it held out', async () => {
  const cv = await crossValidate(['bad', 'good'], (o) => fixed((i) => (o === 'good' ? [`t${i}`] : ['nope'])), [], golden);
  assert.equal(cv.chosen_all, 'good');
  assert.ok(cv.per_fold.every((f) => f.chosen === 'good' && f.heldout_recall_at_5 === 1));
  assert.equal(
    cv.per_fold.reduce((s, f) => s + f.queries, 0),
    N,
  );
  assert.deepEqual(cv.rankings[7], ['t7']);
});

test('no leakage: a grid point tuned to one query never scores it when that query is held out', async () => {
  // grid point p answers only query p correctly. In-sample selection would look perfect on the
  // query it was picked for; held out, the chosen point is always one fitted to a TRAINING query.
  const grid = Array.from({ length: N }, (_, p) => p);
  const cv = await crossValidate(grid, (p) => fixed((i) => (i === p ? [`t${i}`] : [])), [], golden);
  for (const f of cv.per_fold) {
    assert.equal(f.heldout_recall_at_5, 0, `fold ${f.fold}`);
    assert.ok(f.train_recall_at_5 > 0);
    assert.notEqual(foldOf(`q${f.chosen}`), f.fold);
  }
  assert.equal(cv.mean_heldout_recall_at_5, 0);
});
