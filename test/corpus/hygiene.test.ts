import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusHygiene, RULE_EMPTY, RULE_SHORT } from '../../pipeline/corpus/hygiene.ts';
import { canonicalJson } from '../../pipeline/corpus/canonical.ts';
import { UserError, type Corpus, type ToolRecord } from '../../pipeline/types.ts';

function corpus(tools: ToolRecord[]): Corpus {
  return { id: 'hand', name: 'hand-made', version: 'hand-v1', license: 'MIT', committed: false, format: 'mcpgauge', source: 'test', tools };
}
const tool = (id: string, description: string, inputSchema?: ToolRecord['inputSchema']): ToolRecord => {
  const [server, name] = id.split(':');
  return { tool_id: id, server, tool: name, description, ...(inputSchema !== undefined ? { inputSchema } : {}) };
};

const S1 = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
const S1_REORDERED = { required: ['path'], properties: { path: { type: 'string' } }, type: 'object' };
const S2 = { type: 'object', properties: {} };
const S3 = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' }, c: { type: 'string' } } };

test('degenerate descriptions: each rule, each tool counted once, examples in id order', () => {
  const h = corpusHygiene(
    corpus([
      tool('s:empty', ''),
      tool('s:blank', '    \n\t'),
      tool('s:short', 'Lists things'), // 12 code points
      tool('s:cjk', '查询12306余票信息。'), // 11 code points, 31 UTF-8 bytes: counted by code points
      tool('s:twenty', 'exactly twenty chars'), // 20 code points: not short
      tool('s:stub', 'Proxy for upstream tool fetch_url on server web'),
      tool('s:ok', 'Reads a whole text file and returns it as a string'),
      tool('s:stubshort', 'Proxy for x'), // short AND stub: counted once
    ]),
  );
  const d = h.degenerate_descriptions;
  assert.equal(d.count, 6);
  assert.equal(d.fraction, 6 / 8);
  assert.deepEqual(d.rules, [RULE_EMPTY, RULE_SHORT, 'description matches stub pattern ^Proxy for ']);
  assert.deepEqual(
    d.by_rule.map((r) => r.count),
    [2, 5, 2],
  );
  assert.deepEqual(
    d.examples.map((e) => e.tool_id),
    ['s:blank', 's:cjk', 's:empty', 's:short', 's:stub', 's:stubshort'],
  );
  assert.deepEqual(d.examples.find((e) => e.tool_id === 's:stubshort')?.rules, [
    RULE_SHORT,
    'description matches stub pattern ^Proxy for ',
  ]);
});

test('degenerate descriptions: at most 10 examples, custom stub patterns, invalid pattern is a UserError', () => {
  const many = Array.from({ length: 14 }, (_, i) => tool(`s:t${String(i).padStart(2, '0')}`, 'short'));
  const h = corpusHygiene(corpus(many));
  assert.equal(h.degenerate_descriptions.count, 14);
  assert.equal(h.degenerate_descriptions.examples.length, 10);
  const h2 = corpusHygiene(
    corpus([tool('s:a', 'TODO: write a description for this tool'), tool('s:b', 'Proxy for something that is long enough')]),
    { stubPatterns: ['^TODO'] },
  );
  assert.equal(h2.degenerate_descriptions.count, 1);
  assert.equal(h2.degenerate_descriptions.examples[0].tool_id, 's:a');
  assert.throws(
    () => corpusHygiene(corpus(many), { stubPatterns: ['(unclosed'] }),
    (e: unknown) => e instanceof UserError && /stub pattern "\(unclosed": invalid regular expression/.test(e.message),
  );
});

test('schema sizes: bytes of canonical schema and property counts (n, mean, p50, p95, max)', () => {
  const tools = [
    tool('a:one', 'long enough description one', S1),
    tool('a:two', 'long enough description two', S2),
    tool('a:three', 'long enough description three', S3),
    tool('a:none', 'long enough description none'),
  ];
  const h = corpusHygiene(corpus(tools));
  const b1 = Buffer.byteLength(canonicalJson(S1));
  const b2 = Buffer.byteLength(canonicalJson(S2));
  const b3 = Buffer.byteLength(canonicalJson(S3));
  assert.deepEqual([b1, b2, b3], [77, 33, 98]);
  assert.equal(h.tools_without_schema, 1);
  assert.deepEqual(h.schema_bytes, { n: 3, mean: (77 + 33 + 98) / 3, p50: 77, p95: 98, max: 98 });
  assert.deepEqual(h.schema_properties, { n: 3, mean: 4 / 3, p50: 1, p95: 3, max: 3 });
  const none = corpusHygiene(corpus([tool('a:none', 'long enough description none')]));
  assert.deepEqual(none.schema_bytes, { n: 0, mean: null, p50: null, p95: null, max: null });
});

test('duplicate schemas: canonical equality, distinct count, sharing tools, largest groups first', () => {
  const tools = [
    tool('a:p1', 'long enough description p1', S1),
    tool('a:p2', 'long enough description p2', S1_REORDERED), // same canonical schema as S1
    tool('b:p3', 'long enough description p3', S1),
    tool('b:e1', 'long enough description e1', S2),
    tool('c:e2', 'long enough description e2', S2),
    tool('c:u', 'long enough description u', S3),
    tool('c:n', 'long enough description n'),
  ];
  const d = corpusHygiene(corpus(tools)).duplicate_schemas;
  assert.equal(d.tools_with_schema, 6);
  assert.equal(d.distinct, 3);
  assert.equal(d.tools_sharing, 5);
  assert.equal(d.groups, 2);
  assert.deepEqual(
    d.largest.map((g) => [g.tool_count, g.bytes, g.tool_ids]),
    [
      [3, 77, ['a:p1', 'a:p2', 'b:p3']],
      [2, 33, ['b:e1', 'c:e2']],
    ],
  );
  assert.match(d.largest[0].schema_sha256, /^[0-9a-f]{12}$/);
});

test('hygiene of the committed npm corpus (known figures)', async () => {
  const { loadCorpus } = await import('../../pipeline/corpus/load.ts');
  const h = corpusHygiene(await loadCorpus(new URL('../../datasets/corpus-npm4-v1.tools.json', import.meta.url).pathname));
  assert.equal(h.tool_count, 37);
  assert.equal(h.degenerate_descriptions.count, 0);
  assert.equal(h.schema_bytes.n, 37);
  assert.equal(h.duplicate_schemas.distinct, 28);
  assert.equal(h.duplicate_schemas.largest[0].tool_count, 6);
});
