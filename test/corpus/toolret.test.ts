import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync, mkdirSync } from 'node:fs';
import { loadToolRet } from '../../pipeline/corpus/toolret.ts';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { loadGolden } from '../../pipeline/corpus/golden.ts';
import { UserError } from '../../pipeline/types.ts';
import { tempDir, writeParquet, writeToolRetFixture } from './helpers.ts';

const tmp = tempDir();
after(() => tmp.cleanup());

async function rejects(p: Promise<unknown>, re: RegExp) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof UserError, `expected UserError, got ${(e as Error)?.message}`);
    assert.ok(!e.message.includes('\n'));
    assert.match(e.message, re);
    return true;
  });
}

test('ToolRet parquet shards -> Corpus + GoldenSet with counted drops', async () => {
  const dir = writeToolRetFixture(join(tmp.dir, 'good'));
  const { corpus, golden, info } = await loadToolRet(dir);
  assert.equal(corpus.format, 'toolret');
  assert.equal(corpus.version, 'toolret@unknown-revision');
  assert.equal(corpus.committed, false);
  assert.match(corpus.license, /unstated upstream/);
  assert.deepEqual(
    corpus.tools.map((t) => t.tool_id),
    ['apibank:calendar_add', 'apibank:shared_tool', 'apibank:weather_get', 'toolbench:stock_quote'],
  );
  assert.equal(corpus.tools[2].server, 'apibank');
  assert.equal(corpus.tools[2].tool, 'weather_get');
  assert.equal(corpus.tools[2].description, '{"name":"weather_get","description":"Current weather for a city"}');
  assert.equal(corpus.tools[2].inputSchema, undefined);
  assert.deepEqual(
    golden.queries.map((q) => [q.id, q.query, q.labels.map((l) => `${l.tool_id}=${l.relevance}`).join(' ')]),
    [
      ['apibank_q1', 'Is it raining in Paris?', 'apibank:weather_get=1'],
      ['apibank_q2', 'Put lunch with Sam on my calendar tomorrow', 'apibank:calendar_add=1 apibank:shared_tool=2'],
      ['toolbench_q1', 'How is ACME stock doing today?', 'toolbench:stock_quote=1'],
    ],
  );
  assert.equal(golden.corpus_version, corpus.version);
  assert.deepEqual(
    {
      rows: info.tool_rows,
      collapsed: info.duplicate_tools_collapsed,
      qrows: info.query_rows,
      empty: info.dropped_empty_queries,
      unscoreable: info.dropped_unscoreable,
      neg: info.dropped_labels_below_1,
    },
    { rows: 5, collapsed: 1, qrows: 5, empty: 1, unscoreable: 1, neg: 1 },
  );
  // the same folder through the generic entry points
  const c2 = await loadCorpus(dir);
  assert.equal(c2.tools.length, 4);
  const g2 = await loadGolden(dir, c2);
  assert.equal(g2.queries.length, 3);
  // a parent folder with exactly one ToolRet child resolves to it
  const c3 = await loadCorpus(join(tmp.dir));
  assert.equal(c3.source, dir);
});

test('ToolRet: revisions come from FETCH.json when present', async () => {
  const dir = writeToolRetFixture(join(tmp.dir, 'withmanifest', 'toolret'));
  writeFileSync(
    join(dir, 'FETCH.json'),
    JSON.stringify({
      dataset: 'toolret',
      parts: [
        { repo: 'mangopy/ToolRet-Tools', revision: 'e06c38c75612b6536bd959e08cdd345894aba6a7', files: [] },
        { repo: 'mangopy/ToolRet-Queries', revision: 'b8c76ad3349ff17497b6bdb28bb5b8f61a0f6445', files: [] },
      ],
    }),
  );
  const { corpus, golden } = await loadToolRet(dir);
  assert.equal(corpus.version, 'toolret@e06c38c7');
  assert.equal(golden.version, 'toolret-queries@b8c76ad3');
});

test('ToolRet: bad input is a one-line error naming shard, row and reason', async () => {
  await rejects(
    loadToolRet(writeToolRetFixture(join(tmp.dir, 'b1'), { unknownLabel: true })),
    /queries\/apibank\/test-00000\.parquet: \$\[1\]\.labels\[1\]\.id: 1 label\(s\) name no tool in the ToolRet tools \(revisions out of sync\?\): apibank_q2 -> no_such_tool/,
  );
  await rejects(loadToolRet(writeToolRetFixture(join(tmp.dir, 'b2'), { dupQuery: true })), /\$\[3\]\.id: duplicate query id "apibank_q1"/);
  await rejects(
    loadToolRet(writeToolRetFixture(join(tmp.dir, 'b3'), { conflictDoc: true })),
    /toolbench\/train-00000\.parquet: \$\[1\]\.documentation: tool id "shared_tool" also at .* with different documentation/,
  );

  const b4 = writeToolRetFixture(join(tmp.dir, 'b4'));
  writeParquet(join(b4, 'tools', 'apibank', 'train-00000.parquet'), { id: ['x'], doc: ['y'] });
  await rejects(loadToolRet(b4), /train-00000\.parquet: \$\.columns: missing column "documentation" \(has id, doc\)/);

  const b5 = writeToolRetFixture(join(tmp.dir, 'b5'));
  writeFileSync(join(b5, 'queries', 'toolbench', 'test-00000.parquet'), 'this is not parquet at all');
  await rejects(loadToolRet(b5), /test-00000\.parquet: \$: not a readable parquet file/);

  const b6 = writeToolRetFixture(join(tmp.dir, 'b6'));
  writeParquet(join(b6, 'tools', 'toolbench', 'train-00000.parquet'), { id: ['stock_quote', 'blank'], documentation: ['doc', '  '] });
  await rejects(loadToolRet(b6), /\$\[1\]\.documentation: tool "blank" has blank documentation/);

  const b7 = writeToolRetFixture(join(tmp.dir, 'b7'));
  writeParquet(join(b7, 'queries', 'toolbench', 'test-00000.parquet'), {
    id: ['q'],
    query: ['text'],
    labels: ['[{"id":"stock_quote","relevance":7}]'],
  });
  await rejects(loadToolRet(b7), /\$\[0\]\.labels\[0\]\.relevance: query "q": relevance must be an integer 0\.\.3, got 7/);

  const b8 = writeToolRetFixture(join(tmp.dir, 'b8'));
  writeParquet(join(b8, 'queries', 'toolbench', 'test-00000.parquet'), { id: ['q'], query: ['text'], labels: ['[{"id": "stock_quote"'] });
  await rejects(loadToolRet(b8), /\$\[0\]\.labels: query "q": labels is not valid JSON/);

  const b9 = join(tmp.dir, 'b9');
  mkdirSync(join(b9, 'tools'), { recursive: true });
  mkdirSync(join(b9, 'queries'), { recursive: true });
  await rejects(loadToolRet(b9), /b9\/tools: no \.parquet shards/);
});
