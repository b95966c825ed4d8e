import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBm25Retriever } from '../../pipeline/retrieval/bm25f.ts';
import { createPlainBm25Retriever, plainTokens } from '../../pipeline/retrieval/bm25.ts';
import { createSnowballRetriever } from '../../pipeline/retrieval/bm25f_snowball.ts';
import { createExpandRetriever, EXPAND_GRID } from '../../pipeline/retrieval/bm25f_expand.ts';
import { indexEntries, lemmaOffsets, POS, synonyms } from '../../pipeline/retrieval/wordnet.ts';
import { createRrfRetriever } from '../../pipeline/retrieval/hybrid_rrf.ts';
import { fuseRankings } from '../../pipeline/retrieval/rrf.ts';
import { createEmbedRetriever, NO_EMBED_URL } from '../../pipeline/retrieval/embed.ts';
import { createHybridEmbedRetriever } from '../../pipeline/retrieval/hybrid_embed.ts';
import { EMBED_KEY_ENV } from '../../pipeline/retrieval/embed_client.ts';
import type { IndexDoc } from '../../pipeline/types.ts';
import { UserError } from '../../pipeline/types.ts';
import { startStandIn } from './embed_standin.ts';

const doc = (tool_id: string, description: string, params = ''): IndexDoc => ({
  tool_id,
  server: tool_id.split(':')[0],
  name: tool_id.split(':')[1],
  description,
  params,
});
const ids = (hits: { tool_id: string }[]) => hits.map((h) => h.tool_id);

const tmp = mkdtempSync(join(tmpdir(), 'mcpgauge-retrievers-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

test('bm25 (plain): description only, lowercase words, no stemming, no name field', () => {
  assert.deepEqual(plainTokens('Read_Text-File: Lists FILES'), ['read', 'text', 'file', 'lists', 'files']);
  const r = createPlainBm25Retriever();
  r.build([
    doc('fs:read_file', 'Show the contents of a document'),
    doc('fs:list', 'Enumerate the files in a folder'),
    doc('fs:stat', 'Size of one file'),
  ]);
  assert.deepEqual(ids(r.search('read', 5)), []); // the name is not indexed
  assert.deepEqual(ids(r.search('files', 5)), ['fs:list']); // "file" in fs:stat is another token
  const f = createBm25Retriever();
  f.build([
    doc('fs:read_file', 'Show the contents of a document'),
    doc('fs:list', 'Enumerate the files in a folder'),
    doc('fs:stat', 'Size of one file'),
  ]);
  assert.equal(ids(f.search('read', 5))[0], 'fs:read_file');
  assert.deepEqual(new Set(ids(f.search('files', 5))), new Set(['fs:list', 'fs:stat', 'fs:read_file'])); // bm25f stems, and indexes the name
  assert.throws(() => createPlainBm25Retriever({ b: 3 }), /bm25: b must be a number in \[0, 1\], got 3/);
});

test('bm25f_snowball: Porter2 conflates what the light stemmer keeps apart', () => {
  const docs = [doc('s:relate', 'relate two records'), doc('s:other', 'count the rows')];
  const light = createBm25Retriever();
  const snow = createSnowballRetriever();
  light.build(docs);
  snow.build(docs);
  assert.deepEqual(ids(light.search('relational', 5)), []);
  assert.deepEqual(ids(snow.search('relational', 5)), ['s:relate']);
  assert.equal(snow.meta.id, 'bm25f_snowball');
  assert.equal(snow.meta.analyzer, 'mcpgauge-analyzer-v1+porter2');
});

test('wordnet: synonyms from the shipped dictionary, base forms by detachment rules', () => {
  assert.ok(synonyms('picture', 1).includes('image'), synonyms('picture', 1).join('|'));
  assert.ok(synonyms('pictures', 1).includes('image')); // noun -s detached
  assert.deepEqual(synonyms('zzqqxx', 3), []);
});

test('wordnet: the binary search over the index files finds every lemma as the full parse does, and nothing else', () => {
  for (const pos of POS) {
    const entries = indexEntries(pos);
    assert.ok(entries.length > 4000, `${pos}: ${entries.length} lemmas`);
    // every lemma (one comparison at the end: an assertion per lemma would cost seconds)
    const wrong = entries.filter(([lemma, offsets]) => lemmaOffsets(pos, lemma)?.join(' ') !== offsets.join(' ')).map(([l]) => l);
    assert.deepEqual(wrong.slice(0, 10), [], `${pos}: ${wrong.length} lemma(s) looked up wrong`);
    // absent words around the present ones: before the first, after the last, a prefix, an extension, the header's words
    const first = entries[0][0];
    const last = entries[entries.length - 1][0];
    for (const absent of ['', '!', `${first.slice(0, -1)}`, `${first}\u0000`, `${last}z`, '~~~', 'zzqqxx', 'princeton', 'license'])
      if (!entries.some(([l]) => l === absent)) assert.equal(lemmaOffsets(pos, absent), undefined, `${pos} ${JSON.stringify(absent)}`);
  }
});

test('bm25f_expand: query and document expansion find a synonym bm25f misses', () => {
  const docs = [doc('img:get', 'return an image'), doc('txt:get', 'return some text')];
  const plain = createBm25Retriever();
  plain.build(docs);
  assert.deepEqual(ids(plain.search('picture', 5)), []);
  for (const mode of ['query', 'docs', 'both'] as const) {
    const r = createExpandRetriever({ mode, weight: 0.3, senses: 3 }); // image's first sense is "mental image"
    r.build(docs);
    assert.equal(ids(r.search('picture', 5))[0], 'img:get', mode);
    assert.equal(r.meta.params.mode, mode);
  }
  // an exact match still outranks a synonym match
  const r = createExpandRetriever({ mode: 'query', weight: 0.3 });
  r.build([doc('a:pic', 'show a picture'), doc('a:img', 'show an image')]);
  assert.deepEqual(ids(r.search('picture', 5)), ['a:pic', 'a:img']);
  assert.throws(() => createExpandRetriever({ mode: 'sideways' }), /bm25f_expand: mode must be one of query, docs, both, got sideways/);
  assert.ok(EXPAND_GRID.length >= 3 && new Set(EXPAND_GRID.map((g) => g.mode)).size === 3);
});

test('RRF: hand-computed fusion, ties by tool_id; hybrid_rrf validates members', () => {
  const a = [
    { tool_id: 'x', score: 9 },
    { tool_id: 'y', score: 5 },
  ];
  const b = [
    { tool_id: 'y', score: 1 },
    { tool_id: 'z', score: 0.5 },
  ];
  const f = fuseRankings([a, b], 10, 10);
  assert.deepEqual(ids(f), ['y', 'x', 'z']);
  assert.ok(Math.abs(f[0].score - (1 / 12 + 1 / 11)) < 1e-15);
  assert.ok(Math.abs(f[1].score - 1 / 11) < 1e-15);
  assert.deepEqual(ids(fuseRankings([[{ tool_id: 'b', score: 1 }], [{ tool_id: 'a', score: 1 }]], 60, 10)), ['a', 'b']);
  const r = createRrfRetriever({ members: ['bm25f', 'bm25'], k: 5 });
  r.build([doc('s:alpha', 'apple pie'), doc('s:beta', 'banana bread')]);
  assert.deepEqual(ids(r.search('banana', 5)), ['s:beta']);
  assert.deepEqual(r.meta.params.members, ['bm25f', 'bm25']);
  assert.throws(() => createRrfRetriever({ members: ['bm25f'] }), /two or more distinct/);
  assert.throws(() => createRrfRetriever({ members: ['bm25f', 'nope'] }), /unknown member "nope"/);
  assert.throws(() => createRrfRetriever({ k: -1 }), /hybrid_rrf: k must be a finite number >= 0, got -1/);
});

const DOCS = [
  doc('fs:read', 'read the contents of a text file'),
  doc('fs:write', 'write text into a file on disk'),
  doc('mem:graph', 'show the whole knowledge graph'),
  doc('ev:sum', 'add two numbers'),
  doc('ev:echo', 'repeat the message back'),
];

test('embed over a loopback stand-in (OpenAI-compatible): batching, cosine ranking, disk cache, key never written', async () => {
  const s = await startStandIn();
  try {
    const cacheDir = join(tmp, 'cache-openai');
    process.env[EMBED_KEY_ENV] = 'sk-test-secret-123';
    const r = createEmbedRetriever({ url: `${s.base}/v1/embeddings`, model: 'hash-64', batch: 2, cacheDir });
    await r.build(DOCS);
    assert.deepEqual(
      s.requests.map((q) => q.inputs),
      [2, 2, 1],
    ); // 5 docs in batches of 2
    assert.ok(s.requests.every((q) => q.auth === 'Bearer sk-test-secret-123'));
    assert.equal((await r.search('add two numbers', 3))[0].tool_id, 'ev:sum');
    assert.equal((await r.search('knowledge graph', 3))[0].tool_id, 'mem:graph');
    const file = join(cacheDir, readdirSync(cacheDir)[0]);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes('sk-test-secret'));
    assert.equal(text.trim().split('\n').length, 7); // 5 docs + 2 queries
    // a second retriever on the same cache sends nothing for known texts
    const before = s.requests.length;
    const again = createEmbedRetriever({ url: `${s.base}/v1/embeddings`, model: 'hash-64', batch: 2, cacheDir });
    await again.build(DOCS);
    await again.search('add two numbers', 3);
    assert.equal(s.requests.length, before);
    assert.equal(again.client.stats().cached, 6);
    // another model is another cache
    const other = createEmbedRetriever({ url: `${s.base}/v1/embeddings`, model: 'hash-64-b', cacheDir });
    await other.build(DOCS);
    assert.equal(s.requests.length, before + 1);
  } finally {
    delete process.env[EMBED_KEY_ENV];
    await s.close();
  }
});

test('embed over Ollama /api/embed, and hybrid_embed fuses bm25f with it', async () => {
  const s = await startStandIn();
  try {
    const opts = { url: `${s.base}/api/embed`, model: 'hash-64', cacheDir: join(tmp, 'cache-ollama') };
    const r = createEmbedRetriever(opts);
    await r.build(DOCS);
    assert.equal(s.requests[0].path, '/api/embed');
    assert.equal(s.requests[0].auth, undefined);
    assert.equal((await r.search('repeat message', 2))[0].tool_id, 'ev:echo');
    const h = createHybridEmbedRetriever({ ...opts, k: 10 });
    await h.build(DOCS);
    const hits = await h.search('write a file', 5);
    assert.equal(hits[0].tool_id, 'fs:write');
    assert.deepEqual(h.meta.params.members, ['bm25f', 'embed']);
  } finally {
    await s.close();
  }
});

test('embed: no URL, bad URL, HTTP error and unreachable endpoint are one-line UserErrors', async () => {
  assert.throws(
    () => createEmbedRetriever({}),
    (e: unknown) => e instanceof UserError && e.message === `embed: ${NO_EMBED_URL}`,
  );
  assert.throws(
    () => createEmbedRetriever({ url: 'http://127.0.0.1:1/v2/vectors', model: 'm' }),
    /must end in \/v1\/embeddings .* or \/api\/embed .*, got http:\/\/127.0.0.1:1\/v2\/vectors/,
  );
  assert.throws(() => createEmbedRetriever({ url: 'http://127.0.0.1:1/api/embed' }), /--embed-model is required/);
  const s = await startStandIn();
  try {
    s.failNext();
    const r = createEmbedRetriever({ url: `${s.base}/v1/embeddings`, model: 'm', cacheDir: join(tmp, 'cache-fail') });
    await assert.rejects(r.build(DOCS), /HTTP 500: model overloaded/);
  } finally {
    await s.close();
  }
  const dead = createEmbedRetriever({
    url: 'http://127.0.0.1:9/v1/embeddings',
    model: 'm',
    cacheDir: join(tmp, 'cache-dead'),
    timeoutMs: 2000,
  });
  await assert.rejects(
    dead.build(DOCS),
    (e: unknown) => e instanceof UserError && /cannot reach the endpoint/.test(e.message) && !e.message.includes('\n'),
  );
});
