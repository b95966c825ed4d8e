/**
 * The two engines behind pipeline/tokens/tokenizer.ts give the same ids: `count` runs
 * gpt-tokenizer (pure JS, fast to load), `countSpans` runs tiktoken (WASM, the one with each
 * token's bytes). Compared on every string of datasets/ (keys, values, and each file as compact
 * and indented JSON), on hostile text, in both encodings; and a count never loads tiktoken.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { getTokenizer, jsEncoder, TOKENIZER_NAMES } from '../../pipeline/tokens/tokenizer.ts';

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

test('count() loads gpt-tokenizer only: tiktoken (WASM) stays unloaded until a countSpans', () => {
  assert.equal(tiktokenLoaded(), false, 'tiktoken loaded before any count');
  for (const name of TOKENIZER_NAMES) assert.ok(getTokenizer(name).count('hello world, a first count') > 0);
  assert.equal(tiktokenLoaded(), false, 'a count loaded tiktoken');
  const t = getTokenizer('cl100k_base');
  const text = 'ab';
  assert.equal(t.countSpans(text, [{ label: 'all', start: 0, end: 2 }]).total, t.count(text));
  assert.equal(tiktokenLoaded(), true, 'the check sees tiktoken once countSpans loaded it');
});

test('gpt-tokenizer and tiktoken give the same ids on every dataset string and on hostile text, in both encodings', () => {
  const { get_encoding } = require('tiktoken') as typeof import('tiktoken');
  const texts = samples();
  assert.ok(texts.length > 3000, `${texts.length} sample texts`);
  for (const name of TOKENIZER_NAMES) {
    const wasm = get_encoding(name);
    // the encoder count() uses: gpt-tokenizer's, built from the table tokens/ranks.ts loads
    const js = { encode: jsEncoder(name) };
    // and the package's own module, built from its own file
    const pkg = require(`gpt-tokenizer/encoding/${name}`) as { encode(t: string, o: object): number[] };
    const opts = { allowedSpecial: new Set(), disallowedSpecial: new Set() };
    let differ = 0;
    const first: string[] = [];
    for (const t of texts) {
      const a = wasm.encode_ordinary(t);
      const b = js.encode(t);
      const c = pkg.encode(t, opts);
      if (a.length !== b.length || b.some((x, i) => x !== a[i]) || c.length !== b.length || c.some((x, i) => x !== b[i])) {
        differ++;
        if (first.length < 3) first.push(JSON.stringify(t.slice(0, 60)));
      }
    }
    wasm.free();
    assert.equal(differ, 0, `${name}: ${differ} of ${texts.length} texts tokenize differently, e.g. ${first.join(', ')}`);
    // the counter itself (cuts of long runs included) agrees with tiktoken's plain count
    const tk = getTokenizer(name);
    for (const t of texts.filter((x) => x.length < 20_000)) {
      const spans = tk.countSpans(t, [{ label: 'all', start: 0, end: Buffer.byteLength(t) }]).total;
      assert.equal(tk.count(t), spans, `${name}: count vs countSpans on ${JSON.stringify(t.slice(0, 60))}`);
    }
  }
});
