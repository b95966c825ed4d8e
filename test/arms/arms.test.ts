/** Per-arm rendering rules and explicit failures. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getArm } from '../../arms/registry.ts';
import { ArmEncodeError } from '../../arms/errors.ts';
import { signatureOf, paramsOf } from '../../arms/listing/compact_sig.ts';
import { className } from '../../arms/listing/tron_dedup.ts';
import { splitTscgEncoded, TSCG_SKIP_REASON } from '../../arms/listing/tscg.ts';
import type { JsonValue, ToolRecord } from '../../pipeline/types.ts';
import { COLLIDING_SCHEMAS, predecessorGoldens, sampleTools } from './sample.ts';

const tool = (name: string, description: string, inputSchema?: JsonValue): ToolRecord =>
  inputSchema === undefined
    ? { tool_id: `s:${name}`, server: 's', tool: name, description }
    : { tool_id: `s:${name}`, server: 's', tool: name, description, inputSchema };

const isEncodeError = (armId: string, toolId: string, re: RegExp) => (e: unknown) =>
  e instanceof ArmEncodeError && e.armId === armId && e.toolId === toolId && re.test(e.message);

test('baseline_json: name, description, canonical schema; listing joined by a blank line', () => {
  const a = getArm('baseline_json');
  assert.equal(a.renderTool(tool('t', 'd', { type: 'object', b: 1.0, a: [2, 1] })), 't\nd\n{"a":[2,1],"b":1,"type":"object"}');
  assert.equal(a.renderTool(tool('t', 'd')), 't\nd');
  assert.equal(a.renderListing([tool('a', 'x'), tool('b', 'y', {})]), 'a\nx\n\nb\ny\n{}');
  assert.deepEqual(a.indexDoc(tool('t', 'd', { z: 1, a: 2 })), {
    tool_id: 's:t',
    server: 's',
    name: 't',
    description: 'd',
    params: '{"a":2,"z":1}',
  });
  assert.equal(a.indexDoc(tool('t', 'd')).params, '');
  assert.throws(
    () => a.renderTool(tool('bad', 'd', { x: Infinity } as unknown as JsonValue)),
    isEncodeError('baseline_json', 's:bad', /non-finite number at \$\.x/),
  );
});

test('compact_json: fixed outer key order, canonical inner schema, JSON array listing', () => {
  const a = getArm('compact_json');
  const t1 = tool('t', 'say "hi"\n', { type: 'object', properties: { b: {}, a: {} } });
  assert.equal(
    a.renderTool(t1),
    '{"name":"t","description":"say \\"hi\\"\\n","inputSchema":{"properties":{"a":{},"b":{}},"type":"object"}}',
  );
  assert.equal(a.renderTool(tool('n', 'd')), '{"name":"n","description":"d"}');
  const listing = a.renderListing([t1, tool('n', 'd')]);
  assert.deepEqual(JSON.parse(listing), [JSON.parse(a.renderTool(t1)), { name: 'n', description: 'd' }]);
  assert.equal(listing, `[${a.renderTool(t1)},{"name":"n","description":"d"}]`);
});

test('compact_sig: predecessor unit expectations', () => {
  const a = getArm('compact_sig');
  assert.equal(
    a.renderTool(
      tool('fetch', 'Fetch a URL.', {
        properties: { raw: { type: 'boolean' }, url: { type: 'string' }, max_length: { type: 'integer' } },
        required: ['url'],
      }),
    ),
    'fetch(url:string, max_length?:int, raw?:bool)|Fetch a URL.',
  );
  // input key order never changes the output
  const p1 = { zeta: { type: 'string' }, mid: { type: 'boolean' }, alpha: { type: 'number' } };
  const p2 = { alpha: { type: 'number' }, zeta: { type: 'string' }, mid: { type: 'boolean' } };
  assert.equal(a.renderTool(tool('t', 'd', { properties: p1, required: ['mid'] })), 't(mid:bool, alpha?:number, zeta?:string)|d');
  assert.equal(a.renderTool(tool('t', 'd', { required: ['mid'], properties: p2 })), 't(mid:bool, alpha?:number, zeta?:string)|d');
  assert.equal(a.renderTool(tool('noprops', 'd', { type: 'object', properties: {} })), 'noprops()|d');
  assert.equal(a.renderTool(tool('none', 'd')), 'none()|d');
});

test('compact_sig: type resolution, required handling, byte-order sorting', () => {
  const sig = (properties: Record<string, JsonValue>, required?: string[]) =>
    paramsOf(tool('t', 'd', required ? { properties, required } : { properties }));
  assert.equal(
    sig({ a: { type: 'object' }, b: { type: 'array' }, c: { type: 'null' }, d: { type: 'uuid' }, e: {} }),
    'a?:obj, b?:arr, c?:any, d?:any, e?:any',
  );
  assert.equal(sig({ a: { type: ['string', 'null', 'integer', 'string', ''] } }), 'a?:string|int');
  assert.equal(sig({ a: { type: ['null'] } }), 'a?:any');
  assert.equal(sig({ a: { type: [] } }), 'a?:any');
  assert.equal(sig({ a: { anyOf: [{ type: 'string' }, { type: 'null' }] } }), 'a?:string'); // Optional[str]
  assert.equal(sig({ a: { oneOf: [{ type: 'integer' }, { type: 'number' }] } }), 'a?:int|number');
  assert.equal(sig({ a: { anyOf: [{ type: 'string' }, { $ref: '#/x' }] } }), 'a?:any');
  assert.equal(sig({ a: { type: 'boolean', anyOf: [{ type: 'string' }] } }), 'a?:bool'); // `type` wins
  assert.equal(sig({ a: { enum: ['x', 'y'] } }), 'a?:any');
  // required: declared order, de-duplicated, undeclared names dropped
  assert.equal(sig({ x: { type: 'string' }, y: { type: 'integer' } }, ['y', 'ghost', 'y', 'x']), 'y:int, x:string');
  // optional names in code-point (byte) order: uppercase before lowercase, astral after BMP
  assert.equal(sig({ b: {}, B: {}, é: {}, '😀': {}, '\uffee': {}, a: {} }), 'B?:any, a?:any, b?:any, é?:any, \uffee?:any, 😀?:any');
  // __proto__-like names are plain data
  assert.equal(sig(JSON.parse('{"__proto__":{"type":"string"},"constructor":{}}'), ['constructor']), 'constructor:any, __proto__?:string');
  assert.equal(
    signatureOf(sampleTools()[4]),
    'query_docs(query:string, limit:int, Zeta?:bool, filters?:obj, mode?:any, ratio?:number, scope?:any, tags?:arr)',
  );
});

test('compact_sig: malformed schemas are explicit ArmEncodeErrors', () => {
  const a = getArm('compact_sig');
  const cases: [JsonValue, RegExp][] = [
    ['not a schema', /inputSchema must be a JSON object/],
    [[1, 2], /inputSchema must be a JSON object/],
    [{ properties: [] }, /inputSchema\.properties must be an object/],
    [{ properties: { a: 'string' } }, /properties\.a must be an object/],
    [{ properties: {}, required: 'a' }, /inputSchema\.required must be an array of strings/],
    [{ properties: {}, required: [1] }, /inputSchema\.required must be an array of strings/],
    [{ properties: { a: { type: 3 } } }, /properties\.a\.type must be a string or an array of strings/],
    [{ properties: { a: { type: ['string', 3] } } }, /properties\.a\.type must be a string or an array/],
    [{ properties: { a: { anyOf: [{ type: {} }] } } }, /properties\.a\.anyOf\[\]\.type must be/],
  ];
  for (const [schema, re] of cases) {
    assert.throws(() => a.renderTool(tool('bad', 'd', schema)), isEncodeError('compact_sig', 's:bad', re), JSON.stringify(schema));
    assert.throws(() => a.indexDoc(tool('bad', 'd', schema)), ArmEncodeError);
  }
});

test('toon_listing: TOON of one tool, one array header for the listing, schema-only params', () => {
  const a = getArm('toon_listing');
  assert.equal(
    a.renderTool(tool('t', 'plain words', { type: 'object', required: ['q'] })),
    'name: t\ndescription: plain words\ninputSchema:\n  required[1]: q\n  type: object',
  );
  assert.equal(a.renderTool(tool('t', 'a, b')), 'name: t\ndescription: "a, b"');
  assert.equal(a.renderListing([tool('a', 'x'), tool('b', 'y')]), '[2]{name,description}:\n  a,x\n  b,y');
  assert.equal(
    a.indexDoc(tool('t', 'd', { type: 'object', properties: { q: { type: 'string' } } })).params,
    'properties:\n  q:\n    type: string\ntype: object',
  );
  assert.equal(a.indexDoc(tool('t', 'd')).params, '');
});

test('tron_dedup: class names, dedup, collisions', () => {
  const a = getArm('tron_dedup');
  // the predecessor's verified class names
  assert.equal(className('{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}'), 'C923b083c');
  const s = { type: 'object', properties: { p: { type: 'string' } } };
  const cls = className('{"properties":{"p":{"type":"string"}},"type":"object"}');
  assert.equal(a.renderTool(tool('a', 'x', s)), 'a|x|{"properties":{"p":{"type":"string"}},"type":"object"}');
  assert.equal(
    a.renderListing([tool('a', 'x', s), tool('n', 'none'), tool('b', 'y', { properties: { p: { type: 'string' } }, type: 'object' })]),
    `class ${cls} = {"properties":{"p":{"type":"string"}},"type":"object"}\n\na|x|${cls}\n\nn|none\n\nb|y|${cls}`,
  );
  assert.equal(a.renderListing([tool('n', 'none'), tool('m', 'more')]), 'n|none\n\nm|more');
  assert.deepEqual(a.indexDoc(tool('a', 'x', s)).params, `{"$class":"${cls}"}`);
  // a real 32-bit prefix collision between two different schemas
  const [c1, c2] = COLLIDING_SCHEMAS;
  assert.equal(className('{"properties":{"n77959":{"type":"string"}},"type":"object"}'), 'Cd14e8501');
  assert.equal(className('{"properties":{"n98107":{"type":"string"}},"type":"object"}'), 'Cd14e8501');
  assert.throws(
    () => a.renderListing([tool('one', 'd', c1), tool('two', 'd', c2)]),
    isEncodeError('tron_dedup', 's:two', /class name Cd14e8501 collides with a different schema/),
  );
});

test('tscg: unavailable here with the documented reason; index split of the predecessor outputs', async () => {
  const a = getArm('tscg');
  assert.equal(await a.available(), TSCG_SKIP_REASON);
  assert.equal(TSCG_SKIP_REASON, 'skipped: @tscg/core not installed');
  assert.throws(() => a.renderTool(sampleTools()[0]), /before available\(\) confirmed/);
  const rows = predecessorGoldens()
    .tscg_jsonl.split('\n')
    .map((l) => JSON.parse(l) as { tool_id: string; encoded: string });
  assert.equal(rows.length, 3);
  for (const r of rows) {
    const name = r.tool_id.split(':')[1];
    const { description, params } = splitTscgEncoded(name, r.encoded);
    assert.equal(`${name}: ${description}\n${params}`, r.encoded);
    assert.ok(params.endsWith(`[CLOSURE:${name}(path)]`) || params.endsWith('[CLOSURE:fetch(url)]'));
  }
  const fetchSplit = splitTscgEncoded('fetch', rows[0].encoded);
  assert.ok(fetchSplit.description.startsWith('Fetches a URL'));
  assert.ok(fetchSplit.params.startsWith('  max_length (integer):'));
  assert.equal(splitTscgEncoded('t', 't: only a description\n[CLOSURE:t()]').params, '[CLOSURE:t()]');
  assert.throws(() => splitTscgEncoded('t', 'x: d\n[CLOSURE:t()]'), /does not start with "t: "/);
  assert.throws(() => splitTscgEncoded('t', 't: d\n  p (str)'), /no final \[CLOSURE/);
});
