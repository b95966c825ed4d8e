/**
 * Bounded tokenizing (pipeline/tokens/bound.ts): a text without a run longer than RUN_LIMIT is
 * never cut (so its count is tiktoken's, exactly: every arm's texts of the committed corpus), a
 * cut run's count is within MAX_ERROR_PER_CUT tokens per cut of the exact count (measured on runs
 * of letters, words, punctuation, whitespace, CJK and marks; mostly above it), cuts never
 * split a surrogate pair, and countSpans over a cut text still adds up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get_encoding } from 'tiktoken';
import { DEFAULT_CORPUS } from '../../pipeline/constants.ts';
import { findCuts, MAX_ERROR_PER_CUT, pieces, RUN_LIMIT } from '../../pipeline/tokens/bound.ts';
import { getTokenizer, TOKENIZER_NAMES } from '../../pipeline/tokens/tokenizer.ts';
import { resolveArms } from '../../arms/registry.ts';
import { loadCorpus } from '../../pipeline/corpus/load.ts';

let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = (alphabet: string, n: number) => {
  const a = [...alphabet];
  let o = '';
  while (o.length < n) o += a[Math.floor(rnd() * a.length)];
  return o.slice(0, n);
};
const WORDS = 'the quick brown fox jumps over lazy dog server tool file read write list search query'.split(' ');
const wordRun = (n: number) => {
  let o = '';
  while (o.length < n) o += WORDS[Math.floor(rnd() * WORDS.length)];
  return o.slice(0, n);
};

const N = 5 * RUN_LIMIT + 17;
const RUNS: [string, string][] = [
  ['one letter', 'a'.repeat(N)],
  ['random lowercase', pick('abcdefghijklmnopqrstuvwxyz', N)],
  ['random mixed case', pick('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', N)],
  ['words without spaces', wordRun(N)],
  ['one punctuation mark', '='.repeat(N)],
  ['random punctuation', pick('!"#$%&()*+,-./:;<=>?@[]^_{|}~', N)],
  ['spaces', ' '.repeat(N)],
  ['newlines', '\n'.repeat(N)],
  ['mixed whitespace', pick(' \n\t', N)],
  ['CJK', pick('的一是不了人我在有他这中大来上', N)],
  ['punctuation and marks', pick('!\u0301\u0300', N)],
  ['letters and marks', pick('a\u0301', N)],
  ['astral letters', pick('\u{1d41a}\u{1d41b}\u{1d41c}', N)],
  ['inside prose', `Read a file from disk. ${'x'.repeat(N)} Then stop.\n`],
];

test('texts without a run past the limit are not cut: every arm text of the committed corpus', async () => {
  const corpus = await loadCorpus(DEFAULT_CORPUS);
  let texts = 0;
  for (const arm of resolveArms('all')) {
    if ((await arm.available()) !== null) continue;
    for (const t of [arm.renderListing(corpus.tools), ...corpus.tools.map((tool) => arm.renderTool(tool))]) {
      texts++;
      assert.equal(findCuts(t), null, `${arm.meta.id}: a text was cut`);
    }
  }
  assert.ok(texts > 100, `checked ${texts} texts`);
  // a run of exactly the limit is not cut either
  assert.equal(findCuts('a'.repeat(RUN_LIMIT)), null);
  assert.notEqual(findCuts('a'.repeat(RUN_LIMIT + 1)), null);
});

for (const name of TOKENIZER_NAMES) {
  test(`${name}: a cut run counts within one token per cut of the exact count`, () => {
    const enc = get_encoding(name);
    const tk = getTokenizer(name);
    let over = 0;
    try {
      for (const [label, text] of RUNS) {
        const c = findCuts(text);
        assert.ok(c && c.cuts.length >= 4, `${label}: cut`);
        const exact = enc.encode_ordinary(text).length;
        const bounded = tk.count(text);
        const tol = MAX_ERROR_PER_CUT * c.cuts.length;
        assert.ok(Math.abs(bounded - exact) <= tol, `${label}: bounded ${bounded}, exact ${exact}, ${c.cuts.length} cuts`);
        over += bounded - exact;
        // countSpans over the same cut text: the same total, and the parts add up
        const bytes = Buffer.byteLength(text);
        const half = Buffer.byteLength(text.slice(0, c.cuts[1]));
        const sc = tk.countSpans(text, [
          { label: 'head', start: 0, end: half },
          { label: 'tail', start: half, end: bytes },
        ]);
        assert.equal(sc.total, bounded, `${label}: countSpans total`);
        assert.equal(sc.byLabel.head + sc.byLabel.tail, bounded);
      }
      assert.ok(over >= 0, `over all runs the estimate is not below the exact count (${over})`);
    } finally {
      enc.free();
    }
  });
}

test('cuts lie inside one run, on code-point boundaries, and the pieces rebuild the text', () => {
  for (const [label, text] of RUNS) {
    const c = findCuts(text)!;
    assert.equal(pieces(text, c.cuts).join(''), text, label);
    for (const at of c.cuts) {
      const lo = text.charCodeAt(at - 1);
      const hi = text.charCodeAt(at);
      assert.ok(!(lo >= 0xd800 && lo <= 0xdbff && hi >= 0xdc00 && hi <= 0xdfff), `${label}: cut at ${at} splits a surrogate pair`);
    }
    assert.ok(c.longest > RUN_LIMIT, label);
  }
});

test('a 1 MB letter run counts in bounded time (tiktoken alone fails on it)', () => {
  const text = 'a'.repeat(1_000_000);
  for (const name of TOKENIZER_NAMES) {
    const t0 = performance.now();
    const n = getTokenizer(name).count(text);
    const ms = performance.now() - t0;
    assert.ok(n >= 125_000 && n <= 126_000, `${name}: ${n}`);
    assert.ok(ms < 5000, `${name}: ${Math.round(ms)} ms`);
  }
});

/** the rule findCuts implements, written plainly: per code point, the three kinds by regex; a cut every `limit` units of a run */
function referenceCuts(text: string, limit: number): { cuts: number[]; runs: number; longest: number } | null {
  if (text.length <= limit) return null;
  const KINDS = [/[\p{L}\p{M}]/u, /[^\s\p{L}\p{N}]/u, /\s/u];
  const start = [-1, -1, -1];
  const next = [0, 0, 0];
  const cuts = new Set<number>();
  let runs = 0;
  let longest = 0;
  const close = (k: number, end: number) => {
    if (start[k] >= 0 && end - start[k] > limit) {
      runs++;
      longest = Math.max(longest, end - start[k]);
    }
    start[k] = -1;
  };
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    for (let k = 0; k < 3; k++) {
      if (KINDS[k].test(ch)) {
        if (start[k] < 0) [start[k], next[k]] = [i, i + limit];
        else if (i >= next[k]) {
          cuts.add(i);
          next[k] = i + limit;
        }
      } else close(k, i);
    }
    i += cp > 0xffff ? 2 : 1;
  }
  for (let k = 0; k < 3; k++) close(k, text.length);
  return cuts.size ? { cuts: [...cuts].sort((a, b) => a - b), runs, longest } : null;
}

test('findCuts gives what the plain rule gives on 3,000 random texts (letters, marks, digits, spaces, punctuation, CJK, astral, lone surrogates)', () => {
  const alphabet = [
    'a',
    'Z',
    ' ',
    '\n',
    '\t',
    '1',
    '-',
    '{',
    'é',
    '\u0301',
    '中',
    '😀',
    '\ud800',
    '\udc00',
    '\u00a0',
    '\u2028',
    'ß',
    '\u0660',
  ];
  for (let t = 0; t < 3000; t++) {
    const limit = [3, 8, 16, 64][t % 4];
    let s = '';
    const len = Math.floor(rnd() * limit * 12);
    while (s.length < len) s += alphabet[Math.floor(rnd() * alphabet.length)].repeat(1 + Math.floor(rnd() * limit * 2.5));
    assert.deepEqual(findCuts(s, limit), referenceCuts(s, limit), JSON.stringify(s));
  }
});
