/**
 * The chunk-memo counter of the offline stage (pipeline/tokens/chunk_memo.ts) gives exactly the
 * tokenizer's own count: on every arm's per-tool texts and listing of the committed corpus, on
 * simulated responses, and on edge cases around the line boundaries it cuts at.
 */
import { REPO_ROOT as ROOT } from '../../pipeline/constants.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createChunkCounter } from '../../pipeline/tokens/chunk_memo.ts';
import { getTokenizer, TOKENIZER_NAMES } from '../../pipeline/tokens/tokenizer.ts';
import { resolveArms } from '../../arms/registry.ts';
import { loadCorpus } from '../../pipeline/corpus/load.ts';

const EDGE = [
  'a\nb',
  'a\n/b', // o200k: punctuation run may take "/" after newlines
  'x.\n/usr/bin\n',
  '});\n//comment\n', // o200k: ".\n/" style pieces really cross the newline (2 tokens, not 3)
  '**\n/**\n',
  'x.\n  /usr\n',
  'a\n \nb', // whitespace run with a second newline after the boundary
  'a\n\t\n\tb',
  'a \n  b\n   c',
  'end.\n\n\nnext',
  "it\n's\n'S here\nDON'T\n",
  '12\n345\n6789\n',
  '{\n  "k": "v",\n  "n": 1\n}\n',
  'caf\u00e9\n\u00e9t\u00e9\n\u4f60\u597d\n\u0085x\n\u00a0y\n\u2028z',
  'emoji \ud83d\ude00\nlone \ud800\nsurrogate\n',
  '\n\n\n',
  'trailing spaces   \n   ',
  'crlf\r\nline\r\n\r\nnext\r\n',
  '<|endoftext|>\n<|fim_prefix|>\nplain',
];

test('chunk counter equals the plain tokenizer count on edge cases (both tokenizers, memo reused)', () => {
  for (const name of TOKENIZER_NAMES) {
    const tk = getTokenizer(name);
    const cc = createChunkCounter(tk);
    for (let round = 0; round < 2; round++) {
      for (const t of EDGE) assert.equal(cc.count(t), tk.count(t), `${name}: ${JSON.stringify(t)}`);
      // concatenations put every edge case next to every other one
      for (const a of EDGE) for (const b of EDGE) assert.equal(cc.count(a + b), tk.count(a + b), `${name}: ${JSON.stringify(a + b)}`);
    }
    assert.ok(cc.stats.memo > 0, 'the second round is answered from the memo');
  }
});

test('chunk counter equals the plain count on every arm rendering of the committed corpus', async () => {
  const corpus = await loadCorpus(join(ROOT, 'datasets', 'corpus-npm4-v1.tools.json'));
  const tools = corpus.tools;
  for (const name of TOKENIZER_NAMES) {
    const tk = getTokenizer(name);
    const cc = createChunkCounter(tk);
    let checked = 0;
    for (const arm of resolveArms('all')) {
      if ((await arm.available()) !== null) continue;
      cc.reset();
      const texts = tools.map((t) => arm.renderTool(t));
      texts.push(arm.renderListing(tools));
      for (let i = 0; i + 5 <= tools.length; i += 3) texts.push(arm.renderListing(tools.slice(i, i + 5)));
      for (const t of texts) {
        assert.equal(cc.count(t), tk.count(t), `${name} ${arm.meta.id}: ${t.slice(0, 80)}`);
        checked++;
      }
    }
    assert.ok(checked > 100, `${checked} texts`);
    assert.ok(cc.stats.memo > cc.stats.tokenized / 2, `the listings reuse the per-tool chunks: ${JSON.stringify(cc.stats)}`);
  }
});

test('chunk counter: a small memo cap drops the memo and stays exact', () => {
  const tk = getTokenizer('cl100k_base');
  const cc = createChunkCounter(tk, 40);
  const text = Array.from({ length: 50 }, (_, i) => `line number ${i} of the text`).join('\n');
  assert.equal(cc.count(text), tk.count(text));
  assert.equal(cc.count(text), tk.count(text));
  assert.ok(cc.stats.memoChars <= 40);
});
