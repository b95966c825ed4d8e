/**
 * embed_static and hybrid_static on the real model (fetched into .cache/models/ through the
 * bench's own code; skipped without it, failed under CI=true): token ids equal the reference
 * tokenizer's on the committed sample, embeddings are unit-length means of token vectors,
 * rankings, incremental rebuilds, weighted fusion and its CV grid.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { loadStaticModel } from '../../pipeline/models/static_model.ts';
import { modelDir, WORDLLAMA } from '../../pipeline/models/wordllama.ts';
import { readF16Tensor } from '../../pipeline/models/safetensors.ts';
import { createStaticRetriever, staticEmbedStats } from '../../pipeline/retrieval/embed_static.ts';
import { createHybridStaticRetriever, HYBRID_STATIC_GRID, DEFAULT_HYBRID_STATIC } from '../../pipeline/retrieval/hybrid_static.ts';
import { fuseWeighted } from '../../pipeline/retrieval/rrf.ts';
import { LEXICAL_MEMBERS } from '../../pipeline/retrieval/hybrid_rrf.ts';
import { UserError, type IndexDoc } from '../../pipeline/types.ts';
import { modelSkip } from '../models/need_model.ts';

const skip = await modelSkip();
const REF = fileURLToPath(new URL('../data/wordllama-tokenizer-ids.json', import.meta.url));

const doc = (tool_id: string, name: string, description: string): IndexDoc => ({
  tool_id,
  server: tool_id.split(':')[0],
  name,
  description,
  params: '',
});
const DOCS = [
  doc('fs:read_text_file', 'read_text_file', 'Read the complete contents of a file from the file system as text.'),
  doc('fs:write_file', 'write_file', 'Create a new file or completely overwrite an existing file with new content.'),
  doc('mem:create_entities', 'create_entities', 'Create multiple new entities in the knowledge graph.'),
  doc('web:fetch', 'fetch', 'Fetches a URL from the internet and extracts its contents as markdown.'),
];

test('tokenizer: ids equal the reference tokenizer (Python tokenizers) on every committed sample string', { skip }, () => {
  const ref = JSON.parse(readFileSync(REF, 'utf8')) as {
    tokenizer_sha256: string;
    produced_by: string;
    cases: { text: string; ids: number[] }[];
  };
  assert.equal(ref.tokenizer_sha256, WORDLLAMA.tokenizer.sha256, 'the reference ids were made with the pinned tokenizer');
  assert.match(ref.produced_by, /tokenizers==\d/);
  assert.ok(ref.cases.length >= 150);
  const m = loadStaticModel();
  const bad = ref.cases.filter((c) => JSON.stringify(m.tokenize(c.text)) !== JSON.stringify(c.ids));
  assert.deepEqual(
    bad.map((c) => c.text),
    [],
  );
  // the sample holds byte-fallback and special-token text, not only plain words
  assert.ok(ref.cases.some((c) => c.text.includes('🚀')) && ref.cases.some((c) => c.ids.includes(1)));
});

test('embedding: the L2-normalised mean of the token vectors (F16 table widened to F32)', { skip }, () => {
  const m = loadStaticModel();
  assert.equal(m.dims, 256);
  const text = 'print out what is written inside notes.txt';
  const ids = m.tokenize(text);
  const table = readF16Tensor(readFileSync(`${modelDir()}/${WORDLLAMA.weights.name}`), 'embedding.weight', [32000, 256], 'w');
  const mean = new Float64Array(256);
  for (const id of ids) for (let j = 0; j < 256; j++) mean[j] += table[id * 256 + j] / ids.length;
  const norm = Math.hypot(...mean);
  const v = m.embed(text);
  for (let j = 0; j < 256; j++) assert.ok(Math.abs(v[j] - mean[j] / norm) < 1e-5, `dimension ${j}`);
  assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
  assert.deepEqual([...m.embed('')], new Array(256).fill(0), 'no tokens: the zero vector');
  // one load per process
  assert.equal(loadStaticModel(), m);
  assert.equal(
    createHash('sha256')
      .update(readFileSync(`${modelDir()}/${WORDLLAMA.weights.name}`))
      .digest('hex'),
    WORDLLAMA.weights.sha256,
  );
});

test('embed_static: paraphrase ranks the right tool first, cosine scores, ties by id, incremental rebuild', { skip }, () => {
  const r = createStaticRetriever();
  r.build(DOCS);
  const hits = r.search('print out what is written inside notes.txt', 10);
  assert.equal(hits[0].tool_id, 'fs:read_text_file');
  for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
  assert.ok(hits.every((h) => h.score > 0 && h.score <= 1 + 1e-6));
  assert.equal(r.search('anything', 2).length, 2);
  assert.deepEqual(r.search('anything', 0), []);
  // same text under two ids: equal scores, tool_id ascending
  const twin = createStaticRetriever();
  twin.build([doc('b:x', 'x', 'same words'), doc('a:x', 'x', 'same words')]);
  assert.deepEqual(
    twin.search('same words', 5).map((h) => h.tool_id),
    ['a:x', 'b:x'],
  );
  // rebuild with one changed doc: only that one is embedded again
  const base = createStaticRetriever();
  base.build(DOCS);
  const before = staticEmbedStats();
  const changed = [...DOCS.slice(0, 3), doc('web:fetch', 'fetch', 'Download a web page.')];
  base.build(changed);
  const after = staticEmbedStats();
  assert.equal(after.embedded - before.embedded, 1);
  assert.equal(after.reused - before.reused, 3);
  assert.throws(() => base.build([DOCS[0], DOCS[0]]), UserError);
  assert.throws(() => createStaticRetriever().search('q', 3), /before build/);
});

test('hybrid_static: weighted RRF of embed_static and a lexical member; grid starts at the defaults', { skip }, () => {
  // fusion arithmetic: w/(k+rank) summed over the rankings
  const f = fuseWeighted(
    [
      [
        { tool_id: 'a', score: 9 },
        { tool_id: 'b', score: 8 },
      ],
      [{ tool_id: 'b', score: 1 }],
    ],
    [0.75, 0.25],
    5,
    10,
  );
  assert.deepEqual(
    f.map((h) => h.tool_id),
    ['b', 'a'],
  );
  assert.ok(Math.abs(f[0].score - (0.75 / 7 + 0.25 / 6)) < 1e-12 && Math.abs(f[1].score - 0.75 / 6) < 1e-12);
  assert.deepEqual(HYBRID_STATIC_GRID[0], DEFAULT_HYBRID_STATIC);
  assert.equal(new Set(HYBRID_STATIC_GRID.map((g) => JSON.stringify(g))).size, HYBRID_STATIC_GRID.length);
  const h = createHybridStaticRetriever();
  assert.deepEqual(h.meta.params.members, ['embed_static', DEFAULT_HYBRID_STATIC.lexical]);
  assert.deepEqual(
    h.meta.params.weights,
    [DEFAULT_HYBRID_STATIC.w, 1 - DEFAULT_HYBRID_STATIC.w].map((x) => Math.round(x * 1e9) / 1e9),
  );
  h.build(DOCS);
  const dense = createStaticRetriever();
  dense.build(DOCS);
  const lex = LEXICAL_MEMBERS[DEFAULT_HYBRID_STATIC.lexical]();
  lex.build(DOCS);
  const q = 'print out what is written inside notes.txt';
  assert.deepEqual(
    h.search(q, 4),
    fuseWeighted([dense.search(q, 50), lex.search(q, 50)], h.meta.params.weights, DEFAULT_HYBRID_STATIC.k, 4),
  );
  assert.throws(() => createHybridStaticRetriever({ w: 1 }), /w \(dense weight\) must be a number in \(0, 1\)/);
  assert.throws(() => createHybridStaticRetriever({ lexical: 'embed' }), /unknown lexical member "embed"/);
});
