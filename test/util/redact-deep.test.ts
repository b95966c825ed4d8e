/**
 * util/redact.ts redactDeep, the one redaction walker (comply's scrub folded into it): strings
 * anywhere, keys only when asked (comply), the pattern rules unless literalOnly, and the
 * 4-character minimum of a secret value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTED, redactDeep } from '../../pipeline/util/redact.ts';

test('redactDeep: values everywhere, keys only with keys=true, short secrets ignored', () => {
  const doc = { a: ['x tok-1234 y', { 'tok-1234': 'v', n: 3 }], b: 'abc' };
  assert.deepEqual(redactDeep(doc, ['tok-1234', 'abc'], true, true), { a: [`x ${REDACTED} y`, { [REDACTED]: 'v', n: 3 }], b: 'abc' });
  assert.deepEqual(redactDeep(doc, ['tok-1234'], true), { a: [`x ${REDACTED} y`, { 'tok-1234': 'v', n: 3 }], b: 'abc' });
});

test('redactDeep: literalOnly leaves secret-looking patterns alone, the default redacts them', () => {
  const doc = { h: 'Authorization: Bearer abcdefghijklmnop' };
  assert.deepEqual(redactDeep(doc, [], true), doc);
  assert.notEqual(redactDeep(doc).h, doc.h);
});
