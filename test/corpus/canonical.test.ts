import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, sha256Hex } from '../../pipeline/corpus/canonical.ts';

test('canonical JSON sorts keys by code point, compacts, normalizes numbers', () => {
  assert.equal(canonicalJson({ b: 1.0, a: [3, { z: true, y: null }], é: 'x' }), '{"a":[3,{"y":null,"z":true}],"b":1,"é":"x"}');
  assert.equal(canonicalJson(JSON.parse('{"n":1e3,"m":-0}')), '{"m":0,"n":1000}');
  // astral (U+1F600) sorts after U+E000 by code point, although its UTF-16 lead unit is smaller
  assert.equal(canonicalJson({ '\u{1F600}': 1, '\uE000': 2 }), '{"\uE000":2,"\u{1F600}":1}');
});

test('canonical JSON rejects values JSON cannot carry', () => {
  assert.throws(() => canonicalJson({ a: NaN }), /non-finite number at \$\.a/);
  assert.throws(() => canonicalJson({ a: undefined }), /undefined value at \$\.a/);
});

test('canonical JSON reproduces the predecessor TRON class hash for a known schema', () => {
  // From the mcpproxy goldens: C923b083c = first 8 hex of sha256 of this canonical schema.
  const schema = { type: 'object', required: ['path'], properties: { path: { type: 'string' } } };
  const c = canonicalJson(schema);
  assert.equal(c, '{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}');
  assert.equal(sha256Hex(c).slice(0, 8), '923b083c');
});
