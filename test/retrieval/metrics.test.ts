import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreQuery, scoreGolden, scoreRankings, bootstrapMeans, SUMMARY_METRICS } from '../../pipeline/retrieval/metrics.ts';
import { seededRandom } from '../../pipeline/util/stats.ts';
import type { GoldenLabel, GoldenSet } from '../../pipeline/types.ts';
import { UserError } from '../../pipeline/types.ts';

const close = (a: number, b: number, dp = 4) => assert.equal(Number(a.toFixed(dp)), Number(b.toFixed(dp)), `${a} != ${b} at ${dp} dp`);

const ABC: GoldenLabel[] = [
  { tool_id: 'A', relevance: 2 },
  { tool_id: 'B', relevance: 1 },
  { tool_id: 'C', relevance: 1 },
];

test('worked example from the research note: labels A=2,B=1,C=1, ranking [A,X,B,Y]', () => {
  const s = scoreQuery(['A', 'X', 'B', 'Y'], ABC);
  close(s.recall_at_1, 1 / 3);
  close(s.recall_at_3, 2 / 3);
  close(s.recall_at_5, 2 / 3);
  close(s.recall_at_10, 2 / 3);
  assert.equal(s.rr, 1);
  assert.equal(Number(s.ndcg_at_10.toFixed(4)), 0.7985);
  // DCG = 2/log2(2) + 1/log2(4) = 2.5; IDCG = 2 + 1/log2(3) + 1/log2(4)
  close(s.ndcg_at_10, 2.5 / (2 + 1 / Math.log2(3) + 0.5), 12);
  assert.equal(Number(s.ap.toFixed(4)), 0.5556);
  close(s.ap, (1 + 2 / 3) / 3, 12);
  assert.equal(s.comprehensive_at_10, 0);
  assert.equal(s.relevant_count, 3);
  assert.equal(s.first_relevant_rank, 1);
  assert.equal(s.no_relevant_labels, false);
  assert.equal(s.hard_negative_above_first_relevant, false);
});

test('empty ranking scores 0 everywhere but is not flagged as label-less', () => {
  const s = scoreQuery([], ABC);
  for (const k of ['recall_at_1', 'recall_at_10', 'rr', 'ndcg_at_10', 'ap', 'comprehensive_at_10'] as const) assert.equal(s[k], 0, k);
  assert.equal(s.first_relevant_rank, null);
  assert.equal(s.no_relevant_labels, false);
});

test('no relevant labels (R=0): metrics 0 and flagged, hard negative above reported', () => {
  const s = scoreQuery(['N', 'A'], [{ tool_id: 'N', relevance: 0 }]);
  assert.equal(s.no_relevant_labels, true);
  assert.equal(s.relevant_count, 0);
  assert.equal(s.recall_at_10, 0);
  assert.equal(s.ndcg_at_10, 0);
  assert.equal(s.comprehensive_at_10, 0);
  assert.equal(s.first_hard_negative_rank, 1);
  assert.equal(s.hard_negative_above_first_relevant, true);
});

test('graded gain: the primary tool first beats the acceptable tool first', () => {
  const labels = [
    { tool_id: 'P', relevance: 2 },
    { tool_id: 'Q', relevance: 1 },
  ];
  const good = scoreQuery(['P', 'Q'], labels);
  const worse = scoreQuery(['Q', 'P'], labels);
  assert.equal(good.ndcg_at_10, 1);
  // (1/log2 2 + 2/log2 3) / (2/log2 2 + 1/log2 3)
  close(worse.ndcg_at_10, (1 + 2 / Math.log2(3)) / (2 + 1 / Math.log2(3)), 12);
  close(worse.ndcg_at_10, 0.8597);
  // binary metrics cannot tell them apart
  assert.equal(good.ap, worse.ap);
  assert.equal(good.rr, worse.rr);
});

test('comprehensiveness needs every relevant tool within k; hard negative ranks', () => {
  const labels = [
    { tool_id: 'A', relevance: 1 },
    { tool_id: 'B', relevance: 1 },
    { tool_id: 'N', relevance: 0 },
  ];
  const s = scoreQuery(['X', 'N', 'A', 'Y', 'B'], labels);
  assert.deepEqual([s.comprehensive_at_1, s.comprehensive_at_3, s.comprehensive_at_5, s.comprehensive_at_10], [0, 0, 1, 1]);
  assert.deepEqual([s.recall_at_1, s.recall_at_3, s.recall_at_5], [0, 0.5, 1]);
  close(s.rr, 1 / 3, 12);
  close(s.ap, (1 / 3 + 2 / 5) / 2, 12);
  assert.equal(s.first_relevant_rank, 3);
  assert.equal(s.first_hard_negative_rank, 2);
  assert.equal(s.hard_negative_above_first_relevant, true);
  const t = scoreQuery(['A', 'N', 'B'], labels);
  assert.equal(t.hard_negative_above_first_relevant, false);
  assert.equal(t.comprehensive_at_1, 0);
  assert.equal(t.comprehensive_at_3, 1);
});

test('ranking is cut at 10 and duplicates are credited once', () => {
  const filler = Array.from({ length: 10 }, (_, i) => `F${i}`);
  assert.equal(scoreQuery([...filler, 'A'], ABC).recall_at_10, 0);
  const dup = scoreQuery(['B', 'B', 'B'], ABC);
  close(dup.recall_at_3, 1 / 3, 12);
  close(dup.ap, 1 / 3, 12);
});

test('bad labels are a UserError naming the problem', () => {
  assert.throws(
    () =>
      scoreQuery(
        ['A'],
        [
          { tool_id: 'A', relevance: 1 },
          { tool_id: 'A', relevance: 2 },
        ],
      ),
    (e: unknown) => e instanceof UserError && /duplicate label for A/.test(e.message),
  );
  assert.throws(() => scoreQuery(['A'], [{ tool_id: 'A', relevance: Number.NaN }]), /relevance must be a finite number/);
});

function goldenOf(n: number): GoldenSet {
  return {
    corpus_version: 'test',
    queries: Array.from({ length: n }, (_, i) => ({
      id: `q${i}`,
      query: `query ${i}`,
      labels: [
        { tool_id: `t${i}`, relevance: 2 },
        { tool_id: `u${i}`, relevance: 1 },
      ],
    })),
  };
}

// rank of the primary tool cycles 1..4, the acceptable tool is never returned
const cyclingSearch = (q: string) => {
  const i = Number(q.split(' ')[1]);
  const r = ['x', 'y', 'z'];
  r.splice(i % 4, 0, `t${i}`);
  return r;
};

test('scoreGolden: means, bootstrap CI contains the mean, deterministic with the seed', async () => {
  const golden = goldenOf(40);
  const a = await scoreGolden(cyclingSearch, golden);
  assert.equal(a.summary.query_count, 40);
  assert.equal(a.summary.errors, 0);
  assert.deepEqual(a.summary.bootstrap, { iterations: 2000, seed: 42 });
  close(a.summary.metrics.mrr.value, (1 + 1 / 2 + 1 / 3 + 1 / 4) / 4, 12);
  close(a.summary.metrics.recall_at_1.value, 0.5 / 4, 12);
  close(a.summary.metrics.recall_at_5.value, 0.5, 12);
  assert.equal(a.summary.metrics.comprehensiveness_at_10.value, 0);
  for (const m of SUMMARY_METRICS) {
    const f = a.summary.metrics[m];
    assert.ok(f.ci95[0] <= f.value && f.value <= f.ci95[1], `${m}: ${f.ci95} vs ${f.value}`);
    assert.equal(f.provenance, 'measured');
    assert.equal(f.n, 40);
  }
  const mrr = a.summary.metrics.mrr;
  assert.ok(mrr.ci95[0] < mrr.value && mrr.value < mrr.ci95[1], 'a varying metric has a non-degenerate interval');
  const b = await scoreGolden(async (q) => cyclingSearch(q), golden);
  assert.deepEqual(b.summary, a.summary);
  const c = await scoreGolden(cyclingSearch, golden, { bootstrap: { iterations: 2000, seed: 7 } });
  assert.notDeepEqual(c.summary.metrics.mrr.ci95, a.summary.metrics.mrr.ci95);
  assert.equal(c.summary.metrics.mrr.value, a.summary.metrics.mrr.value);
  assert.equal(a.perQuery[2].first_relevant_rank, 3);
  assert.deepEqual(a.perQuery[2].top, ['x', 'y', 't2', 'z']);
  assert.deepEqual(a.perQuery[2].gold, ['t2', 'u2']);
  assert.equal('error' in a.perQuery[2], false);
});

test('scoreGolden: a throwing search yields an error row, counted, scored 0', async () => {
  const golden = goldenOf(4);
  const res = await scoreGolden(
    (q) => {
      if (q === 'query 1') throw new Error('upstream timed out');
      return [`t${q.split(' ')[1]}`];
    },
    golden,
    { bootstrap: { iterations: 200, seed: 1 } },
  );
  assert.equal(res.summary.errors, 1);
  assert.equal(res.perQuery[1].error, 'upstream timed out');
  assert.equal(res.perQuery[1].rr, 0);
  assert.deepEqual(res.perQuery[1].top, []);
  assert.equal(res.perQuery[0].error, undefined);
  close(res.summary.metrics.mrr.value, 3 / 4, 12);
});

test('scoreGolden: k truncates the ranking; a non-array result is an error row', async () => {
  const golden = goldenOf(2);
  const res = await scoreGolden((q) => (q === 'query 0' ? ['a', 'b', 't0'] : (42 as unknown as string[])), golden, {
    k: 2,
    bootstrap: { iterations: 50, seed: 3 },
  });
  assert.deepEqual(res.perQuery[0].top, ['a', 'b']);
  assert.equal(res.perQuery[0].rr, 0);
  assert.match(res.perQuery[1].error ?? '', /array of tool ids/);
  assert.equal(res.summary.k, 2);
});

test('scoreGolden rejects an empty golden set and duplicate query ids', async () => {
  await assert.rejects(
    scoreGolden(() => [], { corpus_version: 'x', queries: [] }),
    /no queries/,
  );
  const g = goldenOf(2);
  g.queries[1].id = 'q0';
  await assert.rejects(
    scoreGolden(() => [], g),
    /golden query q0: duplicate query id/,
  );
});

test('scoreRankings: rankings in hand score exactly as the same rankings searched; bad input is a UserError', async () => {
  const golden = goldenOf(40);
  const rankings = golden.queries.map((q) => cyclingSearch(q.query));
  const searched = await scoreGolden(cyclingSearch, golden, { bootstrap: { iterations: 500, seed: 5 } });
  const direct = scoreRankings(rankings, golden, { bootstrap: { iterations: 500, seed: 5 } });
  assert.deepEqual(direct, searched);
  const cut = scoreRankings(rankings, golden, { k: 2, bootstrap: { iterations: 50, seed: 5 } });
  assert.deepEqual(cut.perQuery[3].top, ['x', 'y']);
  assert.throws(
    () => scoreRankings(rankings.slice(1), golden),
    (e: unknown) => e instanceof UserError && /39 rankings for 40 golden queries/.test(e.message),
  );
  assert.throws(
    () => scoreRankings([...rankings.slice(1), [7 as unknown as string]], golden),
    /ranking of golden query q39 is not an array of tool ids/,
  );
  assert.throws(() => scoreRankings([], { corpus_version: 'x', queries: [] }), /scoreRankings: golden set has no queries/);
});

test('bootstrapMeans: constant column gives a point interval', () => {
  const [ci] = bootstrapMeans([[0.5, 0.5, 0.5]], 100, 9);
  assert.deepEqual(ci, [0.5, 0.5]);
});

/** the resampling as first written: one draw per iteration, every column summed in query order */
function referenceBootstrap(columns: number[][], iterations: number, seed: number): [number, number][] {
  const n = columns[0].length;
  const rnd = seededRandom(seed);
  const draws = columns.map(() => [] as number[]);
  for (let it = 0; it < iterations; it++) {
    const idx = Array.from({ length: n }, () => Math.floor(rnd() * n));
    columns.forEach((c, ci) => {
      let s = 0;
      for (const j of idx) s += c[j];
      draws[ci].push(s / n);
    });
  }
  return draws.map((d) => {
    d.sort((a, b) => a - b);
    const at = (p: number) => d[Math.min(d.length, Math.max(1, Math.ceil((p / 100) * d.length))) - 1];
    return [at(2.5), at(97.5)];
  });
}

test('bootstrapMeans: duplicate columns resampled once, draws reused across calls, intervals bit-identical to the plain resampling', () => {
  const rnd = seededRandom(3);
  const a = Array.from({ length: 301 }, () => Math.round(rnd() * 7) / 7);
  const b = Array.from({ length: 301 }, () => rnd());
  const z = Array.from({ length: 301 }, (_, i) => (i % 3 === 0 ? -0 : 0));
  const cols = [a, b, a.slice(), z, b];
  const want = referenceBootstrap(cols, 500, 42);
  assert.deepEqual(bootstrapMeans(cols, 500, 42), want, 'first call (draws made)');
  assert.deepEqual(bootstrapMeans(cols, 500, 42), want, 'second call (draws reused)');
  assert.deepEqual(bootstrapMeans([b], 500, 42), [want[1]], 'one column alone: the same interval');
  assert.deepEqual(bootstrapMeans(cols, 500, 43), referenceBootstrap(cols, 500, 43), 'another seed: other draws');
  // more draws than are kept (n x iterations > 8M): drawn row by row, same figures
  const big = Array.from({ length: 4001 }, () => rnd());
  assert.deepEqual(bootstrapMeans([big], 2001, 5), referenceBootstrap([big], 2001, 5));
});
