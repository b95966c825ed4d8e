/**
 * Live result cost: golden calls run through the reference proxy's call_tool and directly on the
 * upstream (real processes over loopback HTTP and stdio), tokens split by component.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLive } from '../../pipeline/live/live-stage.ts';
import { countResult, resultSpans, unsafeReason } from '../../pipeline/live/result_cost.ts';
import { RESULT_COMPONENTS } from '../../pipeline/report/index.ts';
import { getTokenizer } from '../../pipeline/tokens/tokenizer.ts';
import { assertLiveSchema } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-live-results-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('result spans: compact JSON of the result, components sum to the total', () => {
  const r = {
    content: [
      { type: 'text', text: 'héllo\n"world"' },
      { type: 'resource_link', uri: 'demo://x', name: 'x' },
      { type: 'text', text: '{"a":[1,2]}', annotations: { priority: 0.5 } },
    ],
    structuredContent: { a: [1, 2], s: 'ü' },
    _meta: { trace: 'abc' },
    isError: false,
  };
  const { text, spans } = resultSpans(r);
  assert.equal(text, JSON.stringify(r));
  assert.deepEqual([...new Set(spans.map((s) => s.label))].sort(), [...RESULT_COMPONENTS].sort());
  for (const name of ['cl100k_base', 'o200k_base']) {
    const tk = getTokenizer(name);
    const c = countResult(r, tk);
    assert.equal(c.total, tk.count(text));
    assert.equal(
      Object.values(c.components).reduce((a, b) => a + b, 0),
      c.total,
    );
    assert.ok(
      Object.values(c.components).every((x) => x > 0),
      JSON.stringify(c),
    );
  }
  // no _meta, no structuredContent: those components are 0
  const bare = countResult({ content: [{ type: 'text', text: 'x' }] }, getTokenizer('o200k_base'));
  assert.equal(bare.components.meta + bare.components.structured_content, 0);
});

test('safe to call: readOnlyHint true, or the golden allow-list', () => {
  const ann = new Map<string, Record<string, unknown> | undefined>([
    ['a:ro', { readOnlyHint: true }],
    ['a:rw', { readOnlyHint: false }],
    ['a:none', undefined],
  ]);
  assert.equal(unsafeReason('a:ro', ann, []), null);
  assert.match(unsafeReason('a:rw', ann, [])!, /not annotated readOnlyHint: true/);
  assert.match(unsafeReason('a:none', ann, [])!, /not annotated readOnlyHint: true/);
  assert.equal(unsafeReason('a:rw', ann, ['a:rw']), null);
  assert.match(unsafeReason('b:x', ann, [])!, /not listed by the upstreams/);
});

test('live: golden calls through the proxy and directly, by component, both tokenizers; unsafe and unresolvable calls skipped', {
  timeout: 240_000,
}, async () => {
  const golden = {
    format: 'mcpgauge-golden',
    corpus_version: 'corpus-npm4-v1',
    version: 'golden-results-test',
    call_allow: ['memory:create_relations'],
    queries: [
      {
        id: 'csv',
        query: 'Peek at the first few lines of sales.csv so I can see the column headers',
        labels: [{ tool_id: 'filesystem:read_text_file', relevance: 3 }],
        call: { tool_id: 'filesystem:read_text_file', arguments: { path: '<ALLOWED_DIR>/data/sales.csv', head: 3 } },
      },
      {
        id: 'links',
        query: 'resource links to resources',
        labels: [{ tool_id: 'everything:get-resource-links', relevance: 3 }],
        call: { tool_id: 'everything:get-resource-links', arguments: { count: 3 } },
      },
      {
        id: 'graph',
        query: 'read the entire knowledge graph',
        labels: [{ tool_id: 'memory:read_graph', relevance: 3 }],
        call: { tool_id: 'memory:read_graph', arguments: {} },
      },
      {
        id: 'unsafe',
        query: 'create multiple new entities in the knowledge graph',
        labels: [{ tool_id: 'memory:create_entities', relevance: 3 }],
        call: { tool_id: 'memory:create_entities', arguments: { entities: [] } },
      },
      {
        id: 'allowed',
        query: 'create multiple new relations between entities in the knowledge graph',
        labels: [{ tool_id: 'memory:create_relations', relevance: 3 }],
        call: { tool_id: 'memory:create_relations', arguments: { relations: [{ from: 'Alice', to: 'Lisbon', relationType: 'visits' }] } },
      },
      {
        id: 'nopath',
        query: 'read the complete contents of a file as text',
        labels: [{ tool_id: 'filesystem:read_text_file', relevance: 3 }],
        call: { tool_id: 'filesystem:read_text_file', arguments: { path: '<ELSEWHERE>/x.txt' } },
      },
      { id: 'nocall', query: 'add two numbers', labels: [{ tool_id: 'everything:get-sum', relevance: 3 }] },
    ],
  };
  const goldenFile = join(dir, 'golden.json');
  writeFileSync(goldenFile, JSON.stringify(golden));
  const live = await runLive({
    goldenFile,
    embeddedServers: ['filesystem', 'memory', 'everything'],
    details: ['full'],
    runs: 1,
    warmup: 0,
    resultTopK: 10,
    timeoutMs: 120_000,
    bootstrap: { iterations: 50, seed: 1 },
  });
  assertLiveSchema(live);
  const rc = live.result_cost!;
  assert.equal(rc.call_tool, 'call_tool');
  assert.equal(rc.top_k, 10);
  assert.equal(rc.candidates, 6);
  const skip = (id: string) => rc.skipped.find((s) => s.query_id === id)?.reason ?? '';
  assert.match(skip('unsafe'), /not called: memory:create_entities is not annotated readOnlyHint: true/);
  assert.match(skip('nopath'), /placeholder <ELSEWHERE> has no value/);
  const called = [...new Set(rc.rows.map((r) => r.query_id))].sort();
  assert.deepEqual(called, ['allowed', 'csv', 'graph', 'links']);
  for (const r of rc.rows) {
    assert.ok(r.ok, `${r.query_id}: ${r.error}`);
    assert.ok(r.rank >= 1 && r.rank <= 10);
    for (const side of [r.proxy!, r.direct!])
      assert.equal(
        Object.values(side.components).reduce((a, b) => a + b, 0),
        side.total,
      );
    assert.equal(r.overhead_tokens, r.proxy!.total - r.direct!.total);
    assert.ok(r.call_tokens > 5);
  }
  const row = (q: string, tk = 'o200k_base') => rc.rows.find((r) => r.query_id === q && r.tokenizer === tk)!;
  // the call is counted as the golden set writes it: <ALLOWED_DIR> kept, not this run's random temp folder
  for (const tk of ['cl100k_base', 'o200k_base'] as const) {
    const written = { name: 'filesystem:read_text_file', arguments: { path: '<ALLOWED_DIR>/data/sales.csv', head: 3 } };
    assert.equal(row('csv', tk).call_tokens, getTokenizer(tk).count(JSON.stringify(written)), tk);
  }
  // filesystem returns the text twice: content text and structuredContent {content}
  assert.ok(
    row('csv').proxy!.components.content_text > 10 && row('csv').proxy!.components.structured_content > 10,
    JSON.stringify(row('csv').proxy),
  );
  // the first 3 lines of the seed file, as the direct call shows
  assert.ok(row('csv').direct!.components.content_text < 40);
  // resource links are non-text blocks: their fields are content_other, not text
  assert.ok(row('links').proxy!.components.content_other > row('links').proxy!.components.content_text, JSON.stringify(row('links').proxy));
  // the memory server answers from the seeded graph (12 entities, 16 relations): a big result
  assert.ok(row('graph').proxy!.total > 500, `read_graph ${row('graph').proxy!.total}`);
  assert.deepEqual(
    rc.summary.map((s) => s.tokenizer),
    ['cl100k_base', 'o200k_base'],
  );
  for (const s of rc.summary) {
    const mine = rc.rows.filter((r) => r.tokenizer === s.tokenizer);
    assert.equal(s.n, 4);
    assert.equal(s.mean_result_tokens, mine.reduce((a, r) => a + r.proxy!.total, 0) / 4);
    assert.equal(s.direct_n, 4);
  }
  // economics: menu + tasks x (discovery response + call + result), estimated, inputs echoed
  const ts = live.economics.task_sessions!;
  assert.equal(ts.length, 2 * 4);
  for (const t of ts) {
    const s = rc.summary.find((x) => x.tokenizer === t.tokenizer)!;
    const d = live.response_summary.find((x) => x.tokenizer === t.tokenizer && x.detail === 'full')!;
    assert.equal(t.provenance, 'estimated');
    assert.equal(t.mean_result_tokens, s.mean_result_tokens);
    assert.equal(t.mean_discovery_response_tokens, d.mean);
    assert.equal(
      t.estimated_tokens,
      Math.floor(t.menu_tokens + t.tasks_per_session * (d.mean + s.mean_call_tokens + s.mean_result_tokens) + 0.5),
    );
  }
});
