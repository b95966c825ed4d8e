/** Every registered retriever honours the Retriever contract; unknown ids fail with one line. */
import { test, before, after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandIn, type StandIn } from './embed_standin.ts';
import { modelSkip } from '../models/need_model.ts';
import assert from 'node:assert/strict';
import { RETRIEVERS, DEFAULT_RETRIEVER_ID, createRetriever, resolveRetrieverIds } from '../../pipeline/retrieval/registry.ts';
import { syntheticTools } from '../../pipeline/corpus/synthetic.ts';
import { UserError, type IndexDoc } from '../../pipeline/types.ts';

const docs: IndexDoc[] = syntheticTools(60, 3, 'reg').map((t) => ({
  tool_id: t.tool_id,
  server: t.server,
  name: t.tool,
  description: t.description,
  params: '',
}));

// retrievers that need an endpoint get the loopback stand-in (test/retrieval/embed_standin.ts)
let standIn: StandIn;
const cacheDir = mkdtempSync(join(tmpdir(), 'mcpgauge-registry-'));
before(async () => (standIn = await startStandIn()));
after(async () => {
  await standIn.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

// retrievers that need the static model get it like the bench does (skipped without, failed under CI=true)
const STATIC = new Set(['embed_static', 'hybrid_static']);
const modelSkipped = await modelSkip();

for (const entry of RETRIEVERS) {
  test(`retriever ${entry.id}: meta, build + search contract`, { skip: STATIC.has(entry.id) && modelSkipped }, async () => {
    assert.match(entry.id, /^[a-z0-9_]+$/);
    const needs = entry.unavailable?.();
    if (needs) assert.equal(needs, 'skipped: no --embed-url');
    const opts = needs ? { url: `${standIn.base}/v1/embeddings`, model: 'hash-64', cacheDir } : undefined;
    assert.equal(entry.unavailable?.(opts), undefined);
    const r = entry.create(opts);
    assert.equal(r.meta.id, entry.id);
    assert.ok(r.meta.analyzer.length > 0);
    assert.doesNotThrow(() => JSON.stringify(r.meta.params));
    await r.build(docs);
    const q = docs[7].description.split(' ').slice(0, 4).join(' ');
    const hits = await r.search(q, 10);
    assert.ok(hits.length > 0 && hits.length <= 10, `${hits.length} hits for "${q}"`);
    const ids = new Set(docs.map((d) => d.tool_id));
    for (let i = 0; i < hits.length; i++) {
      assert.ok(ids.has(hits[i].tool_id));
      assert.ok(hits[i].score > 0);
      if (i > 0) {
        const [a, b] = [hits[i - 1], hits[i]];
        assert.ok(a.score > b.score || (a.score === b.score && a.tool_id < b.tool_id), 'score desc, then tool_id asc');
      }
    }
    // building again from scratch gives the same ranking; a duplicate doc is a UserError
    const again = entry.create(opts);
    await again.build([...docs].reverse());
    assert.deepEqual(await again.search(q, 10), hits);
    await assert.rejects(async () => entry.create(opts).build([docs[0], docs[0]]), UserError);
    if (entry.tuning) {
      assert.ok(entry.tuning.grid.length > 1 && entry.tuning.describe.length > 0);
      for (const g of entry.tuning.grid)
        assert.doesNotThrow(() => entry.create({ ...opts, ...g }), `${entry.id} grid point ${JSON.stringify(g)}`);
    }
  });
}

test('registry: unique ids, the default is the first, unknown ids are one-line UserErrors', () => {
  const ids = RETRIEVERS.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(DEFAULT_RETRIEVER_ID, ids[0]);
  assert.equal(createRetriever().meta.id, ids[0]);
  assert.deepEqual(resolveRetrieverIds([ids[0], ids[0]]), [ids[0]]);
  assert.throws(
    () => resolveRetrieverIds(['nope']),
    (e: unknown) => e instanceof UserError && e.message === `unknown retriever "nope" (valid: ${ids.join(', ')})`,
  );
  assert.throws(() => resolveRetrieverIds([]), UserError);
});
