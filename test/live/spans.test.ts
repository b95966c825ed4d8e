import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partitionResponse, checkPartition, toComponents, COMPONENT_LABELS } from '../../pipeline/live/spans.ts';
import { getTokenizer, TOKENIZER_NAMES } from '../../pipeline/tokens/tokenizer.ts';

const bytes = (s: string): Buffer => Buffer.from(s, 'utf8');
/** the text of each span, keyed by label, in order */
function pieces(text: string): [string, string][] {
  const p = partitionResponse(text);
  checkPartition(p.spans, p.byteLength);
  const b = bytes(text);
  return p.spans.map((s) => [s.label, b.subarray(s.start, s.end).toString('utf8')]);
}

test('full-shape response: pairs include the preceding comma and key, structure is other', () => {
  const text =
    '{"query":"read a file","total":2,"tools":[' +
    '{"name":"filesystem:read_file","server":"filesystem","score":1.5,"description":"Read a file","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}},' +
    '{"name":"memory:read_graph","server":"memory","score":0.25,"description":"Read the graph","inputSchema":{"type":"object"}}' +
    '],"usage_instructions":"Call call_tool with the name."}';
  assert.deepEqual(pieces(text), [
    ['other', '{"query":"read a file","total":2,"tools":[{'],
    ['metadata', '"name":"filesystem:read_file","server":"filesystem","score":1.5'],
    ['descriptions', ',"description":"Read a file"'],
    ['input_schemas', ',"inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}'],
    ['other', '},{'],
    ['metadata', '"name":"memory:read_graph","server":"memory","score":0.25'],
    ['descriptions', ',"description":"Read the graph"'],
    ['input_schemas', ',"inputSchema":{"type":"object"}'],
    ['other', '}]'],
    ['usage_instructions', ',"usage_instructions":"Call call_tool with the name."'],
    ['other', '}'],
  ]);
  const p = partitionResponse(text);
  assert.equal(p.json, true);
  assert.equal(p.flag, undefined);
  assert.equal(p.resultCount, 2);
  assert.deepEqual(p.ranking, ['filesystem:read_file', 'memory:read_graph']);
});

test('compact shape: desc is a description, sig is metadata; bare names get the server prefix', () => {
  const text =
    '{"query":"q","total":1,"tools":[{"name":"echo","server":"fixture","score":2,"sig":"echo(message: string)","desc":"Echoes"}],"usage_instructions":"u"}';
  assert.deepEqual(pieces(text), [
    ['other', '{"query":"q","total":1,"tools":[{'],
    ['metadata', '"name":"echo","server":"fixture","score":2,"sig":"echo(message: string)"'],
    ['descriptions', ',"desc":"Echoes"'],
    ['other', '}]'],
    ['usage_instructions', ',"usage_instructions":"u"'],
    ['other', '}'],
  ]);
  assert.deepEqual(partitionResponse(text).ranking, ['fixture:echo']);
});

test('multi-byte text: offsets are UTF-8 bytes and slices decode back to whole characters', () => {
  const desc = 'Lit un fichier — 読み込み 📁 «ok»';
  const text = `{\n  "tools": [\n    {"name": "fs:lire", "description": ${JSON.stringify(desc)}, "inputSchema": {"title": "Ünïcode ✓"}}\n  ],\n  "usage_instructions": "Appelez 🛠"\n}\n`;
  const p = partitionResponse(text);
  checkPartition(p.spans, p.byteLength);
  assert.equal(p.byteLength, bytes(text).length);
  assert.ok(p.byteLength > text.length, 'test text must contain multi-byte characters');
  const got = pieces(text);
  assert.deepEqual(got, [
    ['other', '{\n  "tools": [\n    {'],
    ['metadata', '"name": "fs:lire"'],
    ['descriptions', `, "description": ${JSON.stringify(desc)}`],
    ['input_schemas', ', "inputSchema": {"title": "Ünïcode ✓"}'],
    ['other', '}\n  ]'],
    ['usage_instructions', ',\n  "usage_instructions": "Appelez 🛠"'],
    ['other', '\n}\n'],
  ]);
  assert.equal(got.map((x) => x[1]).join(''), text);
});

test('escapes inside strings do not end them; wrapped {tool:{...}} entries are labelled inside', () => {
  const text = '{"results":[{"tool":{"name":"a\\"b","server_name":"s","description":"x\\\\y \\u00e9 }]"},"score":1}]}';
  const got = pieces(text);
  assert.deepEqual(got, [
    ['other', '{"results":[{"tool":{'],
    ['metadata', '"name":"a\\"b","server_name":"s"'],
    ['descriptions', ',"description":"x\\\\y \\u00e9 }]"'],
    ['other', '}'],
    ['metadata', ',"score":1'],
    ['other', '}]}'],
  ]);
  assert.deepEqual(partitionResponse(text).ranking, ['s:a"b']);
});

test('non-JSON or trailing data -> one flagged other span; JSON without tools -> flagged, still partitioned', () => {
  for (const text of ['Error: tool not found', '{"tools":[]} extra', '{"tools":[{"name":"x"}', '{"a":01}', '']) {
    const p = partitionResponse(text);
    assert.equal(p.json, false, text);
    assert.match(p.flag ?? '', /not JSON/);
    assert.deepEqual(p.spans, text ? [{ label: 'other', start: 0, end: bytes(text).length }] : []);
    assert.equal(p.resultCount, 0);
  }
  const p = partitionResponse('{"error":"boom","usage_instructions":"retry"}');
  assert.equal(p.json, true);
  assert.match(p.flag ?? '', /without a tools array/);
  assert.deepEqual(pieces('{"error":"boom","usage_instructions":"retry"}'), [
    ['other', '{"error":"boom"'],
    ['usage_instructions', ',"usage_instructions":"retry"'],
    ['other', '}'],
  ]);
});

test('top-level array of tools and empty tools array', () => {
  const p = partitionResponse('[{"name":"s:a","desc":"d"},{"name":"s:b"}]');
  assert.equal(p.resultCount, 2);
  assert.deepEqual(p.ranking, ['s:a', 's:b']);
  const e = partitionResponse('{"query":"zzz","total":0,"tools":[]}');
  assert.equal(e.resultCount, 0);
  assert.deepEqual(e.spans, [{ label: 'other', start: 0, end: 36 }]);
});

test('exact-sum property: components add up to the whole-text count for both tokenizers', () => {
  const tools = Array.from({ length: 12 }, (_, i) => ({
    name: `srv${i % 3}:tool_${i}`,
    server: `srv${i % 3}`,
    score: 1 / (i + 1),
    description: `Outil n°${i} — gère les fichiers 日本語 ${'é'.repeat(i)} 🚀`.repeat(1 + (i % 3)),
    inputSchema: { type: 'object', properties: { [`p${i}`]: { type: 'string', description: 'chemin « absolu »' } }, required: [`p${i}`] },
  }));
  const texts = [
    JSON.stringify({ query: 'fichiers', total: tools.length, tools, usage_instructions: 'Utilisez call_tool(name, arguments) ✓' }),
    JSON.stringify({ query: 'x', tools, usage_instructions: 'y' }, null, 2),
    'plain text, not JSON: 💥',
  ];
  for (const name of TOKENIZER_NAMES) {
    const tk = getTokenizer(name);
    for (const text of texts) {
      const p = partitionResponse(text);
      const { total, byLabel } = tk.countSpans(text, p.spans);
      const c = toComponents(byLabel);
      assert.deepEqual(Object.keys(c), [...COMPONENT_LABELS]);
      assert.equal(total, tk.count(text));
      assert.equal(
        Object.values(c).reduce((a, b) => a + b, 0),
        total,
        `${name}: ${text.slice(0, 30)}`,
      );
      if (p.json) {
        assert.ok(
          c.input_schemas > 0 && c.descriptions > 0 && c.metadata > 0 && c.usage_instructions > 0 && c.other > 0,
          JSON.stringify(c),
        );
      } else {
        assert.equal(c.other, total);
      }
    }
  }
});
