/**
 * The tokenizer's engine (pipeline/tokens/bpe.ts over gpt-tokenizer's table and pre-tokenizer)
 * gives tiktoken's ids: compared on every string of datasets/ (keys, values, and each file as
 * compact and indented JSON), on hostile text and on seeded random text, in both encodings; its
 * count and its span count agree with the ids; and no count loads tiktoken (the oracle here only).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { bpeEncoder, getTokenizer, TOKENIZER_NAMES } from '../../pipeline/tokens/tokenizer.ts';

const require = createRequire(import.meta.url);
const tiktokenLoaded = () => Object.keys(require.cache).some((k) => /[/\\]tiktoken[/\\]/.test(k));

/** every string of the committed datasets, plus hostile text the counters must survive */
function samples(): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        walk(x);
      }
  };
  const dir = join(REPO_ROOT, 'datasets');
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const doc = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    walk(doc);
    out.push(JSON.stringify(doc), JSON.stringify(doc, null, 2));
  }
  out.push(
    '<|endoftext|> text <|fim_prefix|><|im_start|>user<|im_end|>', // special-token text, encoded as ordinary text
    'lone \ud800 high and \udc00 low surrogates',
    '🙂 emoji 👨‍👩‍👧 zwj 🇩🇪 flags',
    '中文字符 日本語 한국어 العربية',
    ' '.repeat(3000),
    'x'.repeat(12_000),
    '\n\n\r\n\t\t  \u00a0\u2028',
    "'s 're 've don't I'M",
    '1234567890'.repeat(50),
  );
  return out;
}

/** seeded random texts over the characters the pre-tokenizers treat differently (cases, marks, surrogates, newlines, digits, contractions) */
function randomTexts(count: number, seed: number): string[] {
  const alphabet = [
    'a',
    'e',
    'Q',
    'x',
    ' ',
    '  ',
    '\n',
    '\r\n',
    '\t',
    '1',
    '23',
    '.',
    ',',
    '!',
    '/',
    '-',
    '_',
    '(',
    '{',
    '"',
    "'s",
    "'LL",
    "'ve",
    'é',
    'ß',
    'ÄÖ',
    '\u0301',
    '中',
    '文',
    '한',
    'ا',
    '🙂',
    '\ud800',
    '\udc00',
    '\u00a0',
    '\u2028',
    'ǅ',
    'ʰ',
  ];
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let t = '';
    const n = 1 + Math.floor(next() * 60);
    for (let j = 0; j < n; j++) t += alphabet[Math.floor(next() * alphabet.length)];
    out.push(t);
  }
  return out;
}

test('no count loads tiktoken: counts and span counts run on the rank table alone', () => {
  for (const name of TOKENIZER_NAMES) {
    const t = getTokenizer(name);
    assert.ok(t.count('hello world, a first count') > 0);
    const text = 'ab cd';
    assert.equal(t.countSpans(text, [{ label: 'all', start: 0, end: 5 }]).total, t.count(text));
  }
  assert.equal(tiktokenLoaded(), false, 'a count loaded tiktoken');
  require('tiktoken');
  assert.equal(tiktokenLoaded(), true, 'the check sees tiktoken once it is loaded');
});

test("the engine gives tiktoken's ids on every dataset string, hostile text and random text, in both encodings", () => {
  const { get_encoding } = require('tiktoken') as typeof import('tiktoken');
  const texts = [...samples(), ...randomTexts(4000, 7)];
  assert.ok(texts.length > 7000, `${texts.length} sample texts`);
  for (const name of TOKENIZER_NAMES) {
    const wasm = get_encoding(name);
    const ours = bpeEncoder(name);
    let differ = 0;
    const first: string[] = [];
    for (const t of texts) {
      const a = wasm.encode_ordinary(t);
      const b = ours.encode(t);
      if (a.length !== b.length || b.some((x, i) => x !== a[i]) || ours.count(t) !== a.length) {
        differ++;
        if (first.length < 3) first.push(JSON.stringify(t.slice(0, 60)));
      }
    }
    wasm.free();
    assert.equal(differ, 0, `${name}: ${differ} of ${texts.length} texts tokenize differently, e.g. ${first.join(', ')}`);
    // the counter itself (cuts of long runs included) agrees with its span count
    const tk = getTokenizer(name);
    for (const t of texts.filter((x) => x.length < 20_000)) {
      const spans = tk.countSpans(t, [{ label: 'all', start: 0, end: Buffer.byteLength(t) }]).total;
      assert.equal(tk.count(t), spans, `${name}: count vs countSpans on ${JSON.stringify(t.slice(0, 60))}`);
    }
  }
});
