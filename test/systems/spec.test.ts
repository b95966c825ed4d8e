import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSystemSpec, parseSystems } from '../../pipeline/systems/spec.ts';
import { Turnstile } from '../../pipeline/systems/turnstile.ts';

test('--system specs: kinds, names, reference options, cmd templates with "=" inside', () => {
  assert.deepEqual(parseSystemSpec('direct'), { name: 'direct', kind: 'direct', spec: 'direct' });
  assert.deepEqual(parseSystemSpec('ref2=reference:retriever=bm25'), {
    name: 'ref2',
    kind: 'reference',
    spec: 'reference:retriever=bm25',
    retriever: 'bm25',
  });
  const c = parseSystemSpec('mine=cmd:FOO=1 node proxy.js --config {CONFIG_FILE}');
  assert.equal(c.name, 'mine');
  assert.equal(c.template, 'FOO=1 node proxy.js --config {CONFIG_FILE}');
  // without a name, a cmd template's own NAME=value words are not taken for a system name
  assert.equal(parseSystemSpec('cmd:A=1 node p.js').name, 'cmd');
  assert.equal(parseSystemSpec('url:http://127.0.0.1:9/mcp').url, 'http://127.0.0.1:9/mcp');
});

test('--system: bad specs and duplicate names are one-line errors naming the value', () => {
  assert.throws(() => parseSystemSpec('proxyx'), /--system "proxyx": unknown system spec "proxyx"/);
  assert.throws(() => parseSystemSpec('reference:k1=2'), /unknown reference option "k1=2"/);
  assert.throws(() => parseSystemSpec('url:ftp://x'), /must be http/);
  assert.throws(() => parseSystemSpec('cmd:'), /needs a command template/);
  assert.throws(() => parseSystems(['reference', 'reference']), /two systems named "reference"/);
  assert.throws(() => parseSystems([]), /no system given/);
});

test('turnstile: calls of two systems alternate, one at a time', async () => {
  const t = new Turnstile();
  const order: string[] = [];
  let inFlight = 0;
  const system = async (name: string) => {
    for (let i = 0; i < 3; i++) {
      await t.run(async () => {
        inFlight++;
        assert.equal(inFlight, 1);
        order.push(`${name}${i}`);
        await new Promise((r) => setTimeout(r, name === 'a' ? 5 : 1));
        inFlight--;
      });
    }
  };
  await Promise.all([system('a'), system('b')]);
  assert.deepEqual(order, ['a0', 'b0', 'a1', 'b1', 'a2', 'b2']);
});
