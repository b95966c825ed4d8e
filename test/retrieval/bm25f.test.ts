import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBm25Retriever, DEFAULT_BM25_PARAMS, FIELD_NAMES, type FieldName } from '../../pipeline/retrieval/bm25f.ts';
import { analyze, analyzeJoined, analyzeParts } from '../../pipeline/retrieval/analyzer.ts';
import { syntheticTools } from '../../pipeline/corpus/synthetic.ts';
import type { IndexDoc } from '../../pipeline/types.ts';
import { UserError } from '../../pipeline/types.ts';

const doc = (tool_id: string, description: string, extra: Partial<IndexDoc> = {}): IndexDoc => ({
  tool_id,
  server: 'srv',
  name: tool_id.split(':')[1],
  description,
  params: '',
  ...extra,
});

// description lengths 2, 4, 1 (avg 7/3); "apple" in d1 once, d2 twice
const THREE = [doc('s:alpha', 'apple banana'), doc('s:beta', 'apple apple cherry grape'), doc('s:gamma', 'cherry')];

test('hand-computed BM25F score on a 3-doc index, one-term query', () => {
  const r = createBm25Retriever();
  r.build(THREE);
  const hits = r.search('apple', 10);
  assert.deepEqual(
    hits.map((h) => h.tool_id),
    ['s:beta', 's:alpha'],
  ); // gamma scores 0: not returned
  const k1 = 1.2;
  const b = 0.75;
  const w = 1; // description weight
  const avg = (2 + 4 + 1) / 3;
  const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)); // N=3, df=2 -> ln(1.6)
  const tf1 = (w * 1) / (1 - b + (b * 2) / avg); // = 1.12
  const tf2 = (w * 2) / (1 - b + (b * 4) / avg); // = 1.302326
  const alpha = (idf * tf1) / (k1 + tf1);
  const beta = (idf * tf2) / (k1 + tf2);
  assert.ok(Math.abs(hits[0].score - beta) < 1e-12, `${hits[0].score} vs ${beta}`);
  assert.ok(Math.abs(hits[1].score - alpha) < 1e-12, `${hits[1].score} vs ${alpha}`);
  assert.equal(Number(alpha.toFixed(6)), 0.226898);
  assert.equal(Number(beta.toFixed(6)), 0.244612);
});

test('b = 0 turns length normalization off; k1 = 0 saturates at the first occurrence', () => {
  const noLen = createBm25Retriever({ b: 0 });
  noLen.build(THREE);
  const idf = Math.log(1.6);
  const [beta, alpha] = noLen.search('apple', 10);
  assert.ok(Math.abs(alpha.score - (idf * 1) / (1.2 + 1)) < 1e-12);
  assert.ok(Math.abs(beta.score - (idf * 2) / (1.2 + 2)) < 1e-12);

  const sat = createBm25Retriever({ k1: 0 });
  sat.build(THREE);
  const hits = sat.search('apple', 10);
  assert.equal(hits[0].score, hits[1].score); // tf no longer matters
  assert.deepEqual(
    hits.map((h) => h.tool_id),
    ['s:alpha', 's:beta'],
  ); // tie -> tool_id asc
  assert.ok(Math.abs(hits[0].score - idf) < 1e-12);
});

test('b penalizes the longer doc when tf is equal', () => {
  const docs = [doc('s:long', 'invoice one two three four five six seven'), doc('s:short', 'invoice eight')];
  const flat = createBm25Retriever({ b: 0 });
  flat.build(docs);
  const f = flat.search('invoice', 5);
  assert.equal(f[0].score, f[1].score);
  assert.deepEqual(
    f.map((h) => h.tool_id),
    ['s:long', 's:short'],
  );
  const norm = createBm25Retriever({ b: 1 });
  norm.build(docs);
  assert.deepEqual(
    norm.search('invoice', 5).map((h) => h.tool_id),
    ['s:short', 's:long'],
  );
});

test('field weights decide between a name match and a description match', () => {
  const docs = [doc('s:archive', 'store old records'), doc('s:store', 'put data in the archive'), doc('s:other', 'nothing related')];
  const byName = createBm25Retriever({ weights: { name: 5, name_parts: 5, description: 1 } });
  byName.build(docs);
  assert.equal(byName.search('archive', 3)[0].tool_id, 's:archive');
  const byDesc = createBm25Retriever({ weights: { name: 0, name_parts: 0, description: 5 } });
  byDesc.build(docs);
  assert.deepEqual(
    byDesc.search('archive', 3).map((h) => h.tool_id),
    ['s:store'],
  ); // name-only match scores 0 -> dropped
  assert.deepEqual(byDesc.meta.params.weights, { ...DEFAULT_BM25_PARAMS.weights, name: 0, name_parts: 0, description: 5 });
});

test('exact identifier in the query hits the joined name token', () => {
  const docs = [
    doc('fs:read_text_file', 'Read a file as text'),
    doc('fs:read_file', 'Read a text file'),
    doc('fs:write_file', 'Write text to a file'),
  ];
  const r = createBm25Retriever();
  r.build(docs);
  for (const q of ['read_text_file', 'readTextFile', 'read-text-file']) assert.equal(r.search(q, 3)[0].tool_id, 'fs:read_text_file', q);
  assert.equal(r.search('readFile', 3)[0].tool_id, 'fs:read_file');
});

test('ties break by tool_id ascending, also when k cuts through the tie', () => {
  const docs = ['e', 'c', 'a', 'd', 'b'].map((x) => doc(`${x}:t`, 'same words here', { name: 't' }));
  const r = createBm25Retriever();
  r.build(docs);
  const all = r.search('words', 10);
  assert.deepEqual(
    all.map((h) => h.tool_id),
    ['a:t', 'b:t', 'c:t', 'd:t', 'e:t'],
  );
  assert.equal(new Set(all.map((h) => h.score)).size, 1);
  assert.deepEqual(
    r.search('words', 2).map((h) => h.tool_id),
    ['a:t', 'b:t'],
  );
});

test('no hits for unknown or stop-word-only queries; k <= 0 -> empty; bad input is a UserError', () => {
  const r = createBm25Retriever();
  assert.throws(() => r.search('x', 1), /before build/);
  r.build(THREE);
  assert.deepEqual(r.search('zebra', 10), []);
  assert.deepEqual(r.search('the of and', 10), []);
  assert.deepEqual(r.search('apple', 0), []);
  assert.throws(
    () => r.build([THREE[0], THREE[0]]),
    (e: unknown) => e instanceof UserError && /duplicate tool_id "s:alpha"/.test(e.message),
  );
  assert.throws(() => r.build([{ ...THREE[0], description: 5 as unknown as string }]), /doc s:alpha: field "description" must be a string/);
  assert.throws(() => createBm25Retriever({ b: 2 }), /b must be a number in \[0, 1\], got 2/);
  assert.throws(() => createBm25Retriever({ k1: -1 }), /k1 must be/);
  assert.throws(() => createBm25Retriever({ weights: { nam: 1 } as never }), /unknown field weight "nam"/);
  // a failed build leaves the previous index usable
  assert.equal(r.search('apple', 1)[0].tool_id, 's:beta');
  r.build([doc('s:new', 'zebra crossing')]);
  assert.deepEqual(r.search('apple', 1), []);
  assert.equal(r.search('zebra', 1)[0].tool_id, 's:new');
});

/** Direct, index-free evaluation of the documented formula (the reference for the inverted index). */
function naiveScores(docs: IndexDoc[], query: string, p = DEFAULT_BM25_PARAMS) {
  const fieldText = (d: IndexDoc, f: FieldName) =>
    f === 'name'
      ? analyzeJoined(d.name)
      : f === 'name_parts'
        ? analyzeParts(d.name)
        : f === 'server'
          ? analyze(d.server)
          : f === 'description'
            ? analyze(d.description)
            : analyze(d.params, 'params');
  const toks = docs.map((d) => FIELD_NAMES.map((f) => fieldText(d, f)));
  const avg = FIELD_NAMES.map((_, f) => toks.reduce((s, t) => s + t[f].length, 0) / docs.length);
  const N = docs.length;
  const out: { tool_id: string; score: number }[] = [];
  const q = analyze(query);
  docs.forEach((d, i) => {
    let score = 0;
    for (const t of q) {
      const df = toks.filter((ft) => ft.some((arr) => arr.includes(t))).length;
      if (!df) continue;
      let tf = 0;
      FIELD_NAMES.forEach((f, fi) => {
        const c = toks[i][fi].filter((x) => x === t).length;
        const B = avg[fi] > 0 ? 1 - p.b + (p.b * toks[i][fi].length) / avg[fi] : 1;
        tf += (p.weights[f] * c) / B;
      });
      if (tf > 0) score += (Math.log(1 + (N - df + 0.5) / (df + 0.5)) * tf) / (p.k1 + tf);
    }
    if (score > 0) out.push({ tool_id: d.tool_id, score });
  });
  return out.sort((a, b) => b.score - a.score || (a.tool_id < b.tool_id ? -1 : 1));
}

test('inverted index equals the direct formula on a 300-tool synthetic corpus', () => {
  const docs: IndexDoc[] = syntheticTools(300, 11).map((t) => ({
    tool_id: t.tool_id,
    server: t.server,
    name: t.tool,
    description: t.description,
    params: JSON.stringify(t.inputSchema),
  }));
  const r = createBm25Retriever();
  r.build(docs);
  for (const q of ['archive pending invoices', 'list shared tickets for the owner', 'restore backup with dry run', 'delete_webhook']) {
    const got = r.search(q, 10);
    const want = naiveScores(docs, q).slice(0, 10);
    assert.equal(got.length, want.length, q);
    assert.ok(got.length > 0, q);
    got.forEach((h, i) => {
      assert.equal(h.tool_id, want[i].tool_id, `${q} #${i}`);
      assert.ok(Math.abs(h.score - want[i].score) < 1e-9, `${q} #${i}: ${h.score} vs ${want[i].score}`);
    });
  }
  const s = r.stats();
  assert.equal(s.docs, 300);
  assert.ok(s.terms > 50 && s.postings > s.terms);
});
