import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get_encoding } from 'tiktoken';
import {
  getTokenizer,
  resolveTokenizers,
  TOKENIZER_NAMES,
  TOKENIZER_CAVEAT,
  SpanError,
  type Span,
} from '../../pipeline/tokens/tokenizer.ts';
import { UserError } from '../../pipeline/types.ts';

const byteLen = (s: string) => Buffer.byteLength(s, 'utf8');

/** Spans from consecutive labelled string parts. */
function partsToSpans(parts: [string, string][]): { text: string; spans: Span[] } {
  let text = '';
  let at = 0;
  const spans: Span[] = [];
  for (const [label, s] of parts) {
    spans.push({ label, start: at, end: at + byteLen(s) });
    at += byteLen(s);
    text += s;
  }
  return { text, spans };
}

test('names, caching and unknown names', () => {
  assert.deepEqual([...TOKENIZER_NAMES], ['cl100k_base', 'o200k_base']);
  assert.equal(getTokenizer('cl100k_base'), getTokenizer('cl100k_base'));
  assert.equal(getTokenizer('o200k_base').name, 'o200k_base');
  assert.throws(
    () => getTokenizer('p50k_base'),
    (e: unknown) => e instanceof UserError && /unknown tokenizer "p50k_base".*cl100k_base, o200k_base/.test((e as Error).message),
  );
  assert.deepEqual(
    resolveTokenizers('all').map((t) => t.name),
    ['cl100k_base', 'o200k_base'],
  );
  assert.deepEqual(
    resolveTokenizers(['o200k_base', 'o200k_base']).map((t) => t.name),
    ['o200k_base'],
  );
  assert.throws(() => resolveTokenizers([]), UserError);
  assert.match(TOKENIZER_CAVEAT, /estimate/);
  assert.match(TOKENIZER_CAVEAT, /relative/i);
});

test('count matches known cl100k/o200k values and independent tiktoken encodes', () => {
  const cl = getTokenizer('cl100k_base');
  const o2 = getTokenizer('o200k_base');
  assert.equal(cl.count(''), 0);
  // "hello world" is two tokens in both encodings.
  assert.equal(cl.count('hello world'), 2);
  assert.equal(o2.count('hello world'), 2);
  const sample = 'fetch(url:string, max_length?:int)|Fetches a URL — 获取当前日期 🎉🎉';
  for (const name of TOKENIZER_NAMES) {
    const raw = get_encoding(name);
    try {
      assert.equal(getTokenizer(name).count(sample), raw.encode_ordinary(sample).length);
    } finally {
      raw.free();
    }
  }
});

test('special-token text is counted as ordinary text, not rejected', () => {
  const cl = getTokenizer('cl100k_base');
  const n = cl.count('a <|endoftext|> b');
  assert.ok(n > 3, `expected <|endoftext|> to split into ordinary tokens, got ${n}`);
  const raw = get_encoding('cl100k_base');
  try {
    assert.throws(() => raw.encode('<|endoftext|>')); // tiktoken's default refuses it
    assert.equal(n, raw.encode('a <|endoftext|> b', [], []).length);
  } finally {
    raw.free();
  }
});

test('countSpans on ASCII: parts sum to the total and follow first-byte ownership', () => {
  const cl = getTokenizer('cl100k_base');
  // " world" is one token (space + word); splitting the span between the space and the word
  // gives the whole token to the span owning the space.
  const { text, spans } = partsToSpans([
    ['a', 'hello '],
    ['b', 'world'],
  ]);
  const r = cl.countSpans(text, spans);
  assert.equal(r.total, 2);
  assert.deepEqual(r.byLabel, { a: 2, b: 0 });
  const r2 = cl.countSpans('hello world', [
    { label: 'a', start: 0, end: 5 },
    { label: 'b', start: 5, end: 11 },
  ]);
  assert.deepEqual(r2.byLabel, { a: 1, b: 1 });
});

test('countSpans on multi-byte text: CJK and emoji split across tokens, every tokenizer', () => {
  const { text, spans } = partsToSpans([
    ['id', '{"id":"x1",'],
    ['desc', '"desc":"获取当前日期，以上海时区为准 🎉🎉🚄",'],
    ['emoji', '👩‍👩‍👧‍👦'],
    ['id', '"tail":"<|endoftext|> 日本語"}'],
  ]);
  for (const name of TOKENIZER_NAMES) {
    const tk = getTokenizer(name);
    const r = tk.countSpans(text, spans);
    assert.equal(r.total, tk.count(text), name);
    assert.equal(
      Object.values(r.byLabel).reduce((a, b) => a + b, 0),
      r.total,
      name,
    );
    assert.deepEqual(Object.keys(r.byLabel).sort(), ['desc', 'emoji', 'id'], name);
    for (const v of Object.values(r.byLabel)) assert.ok(v > 0, `${name}: every label owns tokens`);
  }
  // Hand-checked case: '🎉🎉' is 8 bytes (F0 9F 8E 89 twice). cl100k_base splits each emoji
  // into [F0 9F][8E][89]; o200k_base into [F0 9F 8E][89]. With spans A = bytes 0..5 and
  // B = 5..8 (the boundary falls inside the 2nd emoji), tokens are owned by their first byte:
  // cl100k token starts 0,2,3,4,6,7 -> A gets 4 (0,2,3,4), B gets 2; o200k starts 0,3,4,7 -> A 3, B 1.
  const split: Span[] = [
    { label: 'A', start: 0, end: 5 },
    { label: 'B', start: 5, end: 8 },
  ];
  assert.deepEqual(getTokenizer('cl100k_base').countSpans('🎉🎉', split), { total: 6, byLabel: { A: 4, B: 2 } });
  assert.deepEqual(getTokenizer('o200k_base').countSpans('🎉🎉', split), { total: 4, byLabel: { A: 3, B: 1 } });
});

test('countSpans: repeated labels add up, empty spans allowed, empty text', () => {
  const cl = getTokenizer('o200k_base');
  const { text, spans } = partsToSpans([
    ['k', 'alpha '],
    ['v', 'beta '],
    ['k', 'gamma '],
    ['empty', ''],
    ['v', 'delta'],
  ]);
  const r = cl.countSpans(text, spans);
  assert.equal(r.total, cl.count(text));
  assert.equal(r.byLabel.k + r.byLabel.v + r.byLabel.empty, r.total);
  assert.equal(r.byLabel.empty, 0);
  assert.deepEqual(cl.countSpans('', []), { total: 0, byLabel: {} });
  assert.deepEqual(cl.countSpans('', [{ label: 'x', start: 0, end: 0 }]), { total: 0, byLabel: { x: 0 } });
});

test('countSpans rejects spans that are unsorted, gapped, overlapping or not covering', () => {
  const cl = getTokenizer('cl100k_base');
  const text = 'héllo'; // 6 bytes
  const bad: [Span[], RegExp][] = [
    [[], /no spans given for a text of 6 bytes/],
    [[{ label: 'a', start: 1, end: 6 }], /starts at byte 1, expected 0/],
    [
      [
        { label: 'a', start: 0, end: 2 },
        { label: 'b', start: 3, end: 6 },
      ],
      /span 1 \("b"\) starts at byte 3, expected 2/,
    ],
    [
      [
        { label: 'a', start: 0, end: 4 },
        { label: 'b', start: 2, end: 6 },
      ],
      /starts at byte 2, expected 4/,
    ],
    [[{ label: 'a', start: 0, end: 5 }], /end at byte 5 but the text has 6 bytes/],
    [[{ label: 'a', start: 0, end: 7 }], /end at byte 7 but the text has 6 bytes/],
    [[{ label: 'a', start: 0, end: 1.5 }], /non-integer/],
    [
      [
        { label: 'a', start: 0, end: 3 },
        { label: 'b', start: 3, end: 2 },
      ],
      /ends before it starts/,
    ],
  ];
  for (const [spans, re] of bad) {
    assert.throws(
      () => cl.countSpans(text, spans),
      (e: unknown) => e instanceof SpanError && re.test((e as Error).message),
      JSON.stringify(spans),
    );
  }
});
