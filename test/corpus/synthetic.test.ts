import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syntheticTools } from '../../pipeline/corpus/synthetic.ts';
import { canonicalJson } from '../../pipeline/corpus/canonical.ts';

test('synthetic tools are deterministic, unique and vary in schema size', () => {
  const a = syntheticTools(500, 7);
  const b = syntheticTools(500, 7);
  assert.equal(canonicalJson(a), canonicalJson(b));
  assert.notEqual(canonicalJson(syntheticTools(500, 8)), canonicalJson(a));
  assert.equal(new Set(a.map((t) => t.tool_id)).size, 500);
  const sizes = new Set(a.map((t) => Object.keys((t.inputSchema as { properties: object }).properties).length));
  assert.ok(sizes.size >= 5, `expected varied schema sizes, got ${[...sizes]}`);
});
