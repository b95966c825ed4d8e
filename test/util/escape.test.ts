/** The escaping rules of pipeline/util/escape.ts, one output kind at a time (the end-to-end attacks: test/hostile/esc.test.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { htmlText, md, term, termLine, xml } from '../../pipeline/util/escape.ts';

const WJ = '\u2060';

test('md: every inline construct of the text is escaped, the text reads the same', () => {
  const cases: Array<[string, string]> = [
    ['[x](http://a)', `\\[x\\](http:${WJ}//a)`],
    ['![p](u)', '\\!\\[p\\](u)'],
    ['<img src=x> & <b>', '&lt;img src=x&gt; &amp; &lt;b&gt;'],
    ['a|b', 'a\\|b'],
    ['`c` *e* _u_ ~~s~~ $m$', '\\`c\\` \\*e\\* \\_u\\_ \\~\\~s\\~\\~ \\$m\\$'],
    ['back\\slash', 'back\\\\slash'],
    ['line1\r\nline2\n\n# h', 'line1 line2 \\# h'],
    ['# heading', '\\# heading'],
    ['- item', '\\- item'],
    ['+ item', '\\+ item'],
    ['12. item', '12\\. item'],
    ['3) item', '3\\) item'],
    ['www.example.com', `www${WJ}.example.com`],
    ['@octocat and a@b.example', `@${WJ}octocat and a@${WJ}b.example`],
    ['fixes #12', `fixes \\#${WJ}12`],
    [':white_check_mark: ok', `:${WJ}white\\_check\\_mark: ok`],
    ['\x1b]8;;http://x\x07label\x1b]8;;\x07 \x1b[31mred\x1b[0m\x07\x00', 'label red'],
    ['  padded\t', 'padded'],
  ];
  for (const [input, want] of cases) assert.equal(md(input), want, JSON.stringify(input));
  assert.equal(md(null), '');
  assert.equal(md(42), '42');
});

test('term: escape sequences and C0/C1 controls dropped, \\n and \\t kept; termLine folds them', () => {
  const s = 'a\x1b]8;;http://evil\x07link\x1b]8;;\x1b\\ \x1b[2J\x1b[1;31mred\x1b(B\rover\x07\x00\x7f\x9b\u202eabc\tb\nc';
  assert.equal(term(s), 'alink redoverabc\tb\nc');
  assert.equal(termLine(s), 'alink red overabc b c');
  // an OSC that is never terminated loses its ESC ] only: the rest stays visible, later text is not swallowed
  assert.equal(term('\x1b]8;;http://x no end, then the verdict'), '8;;http://x no end, then the verdict');
  assert.equal(term('plain ✓ █ · text'), 'plain ✓ █ · text');
});

test('htmlText and xml', () => {
  assert.equal(htmlText(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  assert.equal(xml('a\x1bb\x00c\td\ne\rf<'), 'abc\td\ne\rf&lt;');
});
