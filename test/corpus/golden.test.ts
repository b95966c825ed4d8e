import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { loadGolden, validateGolden } from '../../pipeline/corpus/golden.ts';
import { UserError, type Corpus, type GoldenSet } from '../../pipeline/types.ts';
import { tempDir, writeJson } from './helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const tmp = tempDir();
after(() => tmp.cleanup());

const corpusP = loadCorpus(join(ROOT, 'datasets', 'corpus-npm4-v1.tools.json'));

for (const [version, minQueries] of [
  ['golden-npm4-v1', 60],
  ['golden-npm4-v2', 120],
] as const)
  test(`${version} validates against corpus-npm4-v1 and meets the authoring rules`, async () => {
    const corpus = await corpusP;
    const g = await loadGolden(join(ROOT, 'datasets', `${version}.json`), corpus);
    assert.equal(g.corpus_version, 'corpus-npm4-v1');
    assert.equal(g.version, version);
    assert.ok(g.queries.length >= minQueries, `need >= ${minQueries} queries, have ${g.queries.length}`);
    // id prefixes follow the server of a primary label
    const prefix: Record<string, string> = {
      filesystem: 'q-fs-',
      memory: 'q-mem-',
      'sequential-thinking': 'q-think-',
      everything: 'q-ev-',
    };
    for (const q of g.queries) {
      const servers = q.labels.filter((l) => l.relevance >= 2).map((l) => l.tool_id.split(':')[0]);
      assert.ok(
        servers.some((s) => q.id.startsWith(prefix[s])),
        `${q.id}: prefix does not match a primary/good label's server (${servers})`,
      );
    }
    // every tool is primary (3) at least once
    const primary = new Set(g.queries.flatMap((q) => q.labels.filter((l) => l.relevance === 3).map((l) => l.tool_id)));
    const missing = corpus.tools.map((t) => t.tool_id).filter((id) => !primary.has(id));
    assert.deepEqual(missing, [], `tools never primary: ${missing}`);
    // graded labels are really used, and hard negatives carry a note saying why
    const rel = (r: number) => g.queries.flatMap((q) => q.labels).filter((l) => l.relevance === r).length;
    assert.ok(rel(2) >= 10 && rel(1) >= 10 && rel(0) >= 10, `grades 2/1/0: ${rel(2)}/${rel(1)}/${rel(0)}`);
    for (const q of g.queries)
      if (q.labels.some((l) => l.relevance === 0))
        assert.match(q.notes ?? '', /hard negative|hard:|ambiguous/, `${q.id} has a hard negative without a note`);
    assert.ok(g.queries.filter((q) => /ambiguous|hard/.test(q.notes ?? '')).length >= 15);
    // queries never name the tool and never copy description text (no shared run of 4 words)
    const words = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
    const grams = (w: string[]) => new Set(w.map((_, i) => w.slice(i, i + 4).join(' ')).filter((x, i) => i + 4 <= w.length && x));
    const descGrams = new Map<string, string>();
    for (const t of corpus.tools) for (const x of grams(words(t.description))) descGrams.set(x, t.tool_id);
    for (const q of g.queries) {
      for (const t of corpus.tools) assert.ok(!q.query.toLowerCase().includes(t.tool.toLowerCase()), `${q.id} names tool ${t.tool}`);
      for (const x of grams(words(q.query))) assert.ok(!descGrams.has(x), `${q.id} copies "${x}" from ${descGrams.get(x)}`);
    }
  });

test('golden-npm4-v2 keeps every golden-npm4-v1 query and label unchanged (queries are only added)', async () => {
  const corpus = await corpusP;
  const v1 = await loadGolden(join(ROOT, 'datasets', 'golden-npm4-v1.json'), corpus);
  const v2 = await loadGolden(join(ROOT, 'datasets', 'golden-npm4-v2.json'), corpus);
  assert.deepEqual(v2.queries.slice(0, v1.queries.length), v1.queries);
  const added = v2.queries.slice(v1.queries.length);
  assert.ok(added.length >= 48, `added ${added.length}`);
  for (const q of added) assert.match(q.id, /^q-(fs|mem|think|ev)-v2-/, `${q.id}: added ids carry -v2-`);
});

test('validateGolden lists every offending id in one line', async () => {
  const corpus = await corpusP;
  const g: GoldenSet = {
    corpus_version: 'corpus-npm4-v1',
    queries: [
      {
        id: 'q-a',
        query: 'read a file',
        labels: [
          { tool_id: 'filesystem:read_text_file', relevance: 3 },
          { tool_id: 'filesystem:nope', relevance: 1 },
        ],
      },
      { id: 'q-a', query: 'again', labels: [{ tool_id: 'memory:read_graph', relevance: 3 }] },
      { id: 'q-empty', query: '   ', labels: [{ tool_id: 'memory:read_graph', relevance: 3 }] },
      {
        id: 'q-rel',
        query: 'bad grade',
        labels: [
          { tool_id: 'everything:echo', relevance: 4 },
          { tool_id: 'everything:get-sum', relevance: 1.5 },
        ],
      },
      { id: 'q-neg', query: 'only negatives', labels: [{ tool_id: 'everything:echo', relevance: 0 }] },
      {
        id: 'q-twice',
        query: 'twice',
        labels: [
          { tool_id: 'everything:echo', relevance: 3 },
          { tool_id: 'everything:echo', relevance: 1 },
        ],
      },
      { id: 'q-none', query: 'no labels', labels: [] },
    ],
  };
  assert.throws(
    () => validateGolden(g, corpus, 'g.json'),
    (e: unknown) => {
      assert.ok(e instanceof UserError);
      const m = e.message;
      assert.ok(!m.includes('\n'));
      assert.match(m, /^g\.json: invalid golden set: /);
      assert.match(m, /unknown tool_id \(not in corpus-npm4-v1\): q-a \(filesystem:nope\)/);
      assert.match(m, /duplicate query id: q-a/);
      assert.match(m, /empty query: q-empty/);
      assert.match(m, /relevance not an integer 0\.\.3: q-rel \(everything:echo=4\), q-rel \(everything:get-sum=1\.5\)/);
      assert.match(m, /no label with relevance >= 1: q-rel, q-neg, q-none/);
      assert.match(m, /tool labelled twice: q-twice \(everything:echo\)/);
      return true;
    },
  );
  // a fixed version of the same set passes
  const ok: GoldenSet = {
    corpus_version: 'corpus-npm4-v1',
    queries: [
      {
        id: 'q-a',
        query: 'read a file',
        labels: [
          { tool_id: 'filesystem:read_text_file', relevance: 3 },
          { tool_id: 'filesystem:read_media_file', relevance: 0 },
        ],
      },
    ],
  };
  validateGolden(ok, corpus, 'ok.json');
  assert.throws(
    () => validateGolden({ ...ok, corpus_version: 'corpus-npm4-v9' }, corpus, 'v.json'),
    /corpus_version mismatch: golden is for corpus-npm4-v9, corpus is corpus-npm4-v1/,
  );
  validateGolden({ ...ok, corpus_version: 'corpus-npm4-v9' }, corpus, 'v.json', { allowCorpusVersionMismatch: true });
});

test('loadGolden: shape errors name file and JSON path', async () => {
  const corpus: Corpus = { ...(await corpusP) };
  const f = (name: string, v: unknown) => writeJson(join(tmp.dir, name), v);
  const base = {
    corpus_version: 'corpus-npm4-v1',
    queries: [{ id: 'q', query: 'x', labels: [{ tool_id: 'everything:echo', relevance: 3 }] }],
  };
  assert.equal((await loadGolden(f('ok.json', base), corpus)).queries.length, 1);
  await assert.rejects(loadGolden(f('m.json', '{"queries": ['), corpus), /m\.json: \$: malformed JSON/);
  await assert.rejects(loadGolden(f('q.json', { ...base, queries: [] }), corpus), /q\.json: \$\.queries: golden set has no queries/);
  await assert.rejects(
    loadGolden(
      f('r.json', { ...base, queries: [{ id: 'q', query: 'x', labels: [{ tool_id: 'everything:echo', relevance: '3' }] }] }),
      corpus,
    ),
    /r\.json: \$\.queries\[0\]\.labels\[0\]\.relevance: must be a number, got string/,
  );
  await assert.rejects(
    loadGolden(f('k.json', { ...base, queries: [{ id: 'q', query: 'x', labels: [], tags: [] }] }), corpus),
    /k\.json: \$\.queries\[0\]\.tags: unknown key/,
  );
  await assert.rejects(
    loadGolden(f('t.json', { ...base, queries: [{ id: 'q', query: 5, labels: [] }] }), corpus),
    /t\.json: \$\.queries\[0\]\.query: query "q": must be a string, got number/,
  );
  await assert.rejects(
    loadGolden(
      f('u.json', { ...base, queries: [{ id: 'q', query: 'x', labels: [{ tool_id: 'everything:nope', relevance: 3 }] }] }),
      corpus,
    ),
    /u\.json: invalid golden set: unknown tool_id \(not in corpus-npm4-v1\): q \(everything:nope\)/,
  );
  await assert.rejects(loadGolden(join(tmp.dir, 'absent.json'), corpus), /absent\.json: cannot read golden set \(ENOENT\)/);
});
