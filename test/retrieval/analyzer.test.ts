import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  analyze,
  analyzeJoined,
  analyzeParts,
  identifierParts,
  stem,
  ANALYZER_DESCRIPTION,
  ANALYZER_ID,
} from '../../pipeline/retrieval/analyzer.ts';

test('snake_case, kebab, dotted and camelCase identifiers split into parts plus the joined form', () => {
  assert.deepEqual(analyze('read_text_file'), ['read', 'text', 'fil', 'readtextfil']);
  assert.deepEqual(analyze('readTextFile'), ['read', 'text', 'fil', 'readtextfil']);
  assert.deepEqual(analyze('read-text-file'), analyze('read_text_file'));
  assert.deepEqual(analyze('fs.readFile'), ['fs', 'read', 'fil', 'fsreadfil']);
  assert.deepEqual(identifierParts('HTMLParser'), ['html', 'parser']);
  assert.deepEqual(identifierParts('getV2Data'), ['get', 'v2', 'data']);
  assert.deepEqual(identifierParts('base64Encode'), ['base64', 'encode']);
  assert.deepEqual(analyzeParts('list_allowed_directories'), ['list', 'allow', 'directori']);
  assert.deepEqual(analyzeJoined('list_allowed_directories echo'), ['listalloweddirectori', 'echo']);
});

test('unicode: NFKC, Unicode case and camelCase, non-Latin scripts pass through unstemmed', () => {
  assert.deepEqual(analyze('ÜberPrüfung der Größe'), ['über', 'prüfung', 'überprüfung', 'der', 'größe']);
  assert.deepEqual(analyze('ＡＰＩ　ｋｅｙｓ'), ['api', 'key']); // fullwidth -> ASCII via NFKC
  assert.deepEqual(analyze('ΑΡΧΕΙΑ'), ['αρχεια']);
  assert.deepEqual(analyze('检索工具 files'), ['检索工具', 'fil']);
  assert.deepEqual(analyze("user's café"), ['user', 'café']);
});

test('punctuation never yields tokens; stop words dropped', () => {
  assert.deepEqual(analyze('{"a": [1, 2], "b": {}} -- !!! ... ::'), ['1', '2', 'b']);
  assert.deepEqual(analyze('Show me the contents of a file on the disk'), ['show', 'content', 'fil', 'disk']);
  assert.deepEqual(analyze(''), []);
});

test('params mode drops JSON Schema vocabulary and the schema URL, keeps parameter words', () => {
  const schema = JSON.stringify({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { path: { type: 'string', description: 'Path of the file' }, maxDepth: { type: 'integer', minimum: 0 } },
    required: ['path'],
    additionalProperties: false,
  });
  assert.deepEqual(analyze(schema, 'params'), ['path', 'path', 'fil', 'max', 'depth', 'maxdepth', '0', 'path']);
  const text = analyze(schema);
  assert.ok(text.includes('typ') && text.includes('properti') && text.includes('json'), 'text mode keeps them');
  assert.deepEqual(analyze('read-only flag', 'params'), ['read', 'onli', 'readonli', 'flag']);
});

test('stemmer: plurals, -ing, -ed, final e and y', () => {
  const cases: [string, string][] = [
    ['queries', 'queri'],
    ['query', 'queri'],
    ['files', 'fil'],
    ['file', 'fil'],
    ['classes', 'class'],
    ['class', 'class'],
    ['boxes', 'box'],
    ['matches', 'match'],
    ['status', 'status'],
    ['analysis', 'analysis'],
    ['running', 'run'],
    ['mapping', 'map'],
    ['string', 'string'],
    ['listing', 'list'],
    ['created', 'creat'],
    ['creating', 'creat'],
    ['create', 'creat'],
    ['copied', 'copi'],
    ['copy', 'copi'],
    ['keys', 'key'],
    ['need', 'need'],
    ['settings', 'set'],
    ['run', 'run'],
    ['v2', 'v2'],
    ['größe', 'größe'],
  ];
  for (const [w, s] of cases) assert.equal(stem(w), s, w);
});

test('analyzer is documented and versioned', () => {
  assert.equal(ANALYZER_ID, 'mcpgauge-analyzer-v1');
  assert.match(ANALYZER_DESCRIPTION, /camelCase/);
  assert.match(ANALYZER_DESCRIPTION, /stemmer/);
});
