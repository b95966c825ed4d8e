/**
 * The BPE rank tables through tokens/ranks.ts and bpe.ts RankTable: the table holds exactly
 * gpt-tokenizer's entries (text and byte tokens) and finds every one of them by its bytes; the
 * copy kept under the cache is read by a later load; a copy that is truncated, damaged or of
 * another table's length is never used (the table is built from the package and the copy written
 * anew); a copy that cannot be written changes nothing but the speed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRankTable, MERGEABLE, packageRanks, rankTableFile } from '../../pipeline/tokens/ranks.ts';
import { RankTable, TABLE_FORMAT } from '../../pipeline/tokens/bpe.ts';
import { CACHE_ROOT, TOKENIZER_NAMES } from '../../pipeline/constants.ts';

const require = createRequire(import.meta.url);

const entryBytes = (v: string | readonly number[]) => (typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v));

test('the table is the package table, entry for entry (text and byte tokens), and finds each entry by its bytes, in both encodings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-ranks-'));
  try {
    for (const name of TOKENIZER_NAMES) {
      const file = join(dir, `${name}.bpe`);
      const first = loadRankTable(name, file);
      assert.ok(existsSync(file), 'the first load wrote the copy');
      const again = loadRankTable(name, file);
      const pkg = packageRanks(name);
      assert.equal(pkg.length, MERGEABLE[name]);
      assert.ok(pkg.some((v) => Array.isArray(v)) && pkg.some((v) => typeof v === 'string'), 'both kinds of entries are in the table');
      for (const t of [first, again]) {
        assert.equal(t.size, pkg.length);
        let wrong = 0;
        for (let r = 0; r < pkg.length; r++) {
          const want = entryBytes(pkg[r]);
          if (!Buffer.from(t.bytesOf(r)).equals(want) || t.rankOf(want, 0, want.length) !== r) wrong++;
        }
        assert.equal(wrong, 0, `${name}: ${wrong} entries differ from the package's or are not found by their bytes`);
      }
      // bytes that are no token are not found (a two-byte run no table holds)
      assert.equal(first.rankOf(Uint8Array.of(0xff, 0xfe), 0, 2), 0xffffffff);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a later load reads the copy; a truncated, damaged or other-length copy is never used, and is written anew', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-ranks-'));
  try {
    const file = join(dir, 'cl100k_base.bpe');
    const pkg = packageRanks('cl100k_base');
    const good = RankTable.build(pkg).bytes();
    // a sound copy of a marked table (ranks 0 and 1 swapped) is what a load returns: it was read
    const marked = [...pkg];
    [marked[0], marked[1]] = [marked[1], marked[0]];
    writeFileSync(file, RankTable.build(marked).bytes());
    assert.equal(Buffer.from(loadRankTable('cl100k_base', file).bytesOf(0)).toString(), String(pkg[1]));

    const words = (b: Uint8Array) => new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
    const damaged: [string, Uint8Array][] = [
      ['empty', new Uint8Array(0)],
      ['truncated', good.slice(0, good.length - 1)],
      ['header only', good.slice(0, 32)],
      ['another table length', RankTable.build(pkg.slice(0, 1000)).bytes()],
    ];
    const edit = (what: string, fn: (w: Uint32Array) => void) => {
      const b = good.slice();
      fn(words(b));
      damaged.push([what, b]);
    };
    edit('wrong magic', (w) => {
      w[0] ^= 1;
    });
    edit('another format', (w) => {
      w[1] = TABLE_FORMAT + 1;
    });
    edit('a start that goes back', (w) => {
      w[8 + 500] = w[8 + 499];
    });
    edit('a slot naming no rank', (w) => {
      const n = w[2];
      const slots = 8 + n + 1;
      let i = slots;
      while (w[i] !== 0) i++;
      w[i] = n + 7;
    });
    // what only the CRC-32 sees: one byte of one token's text changed (the layout still adds up)
    const flipped = good.slice();
    flipped[flipped.length - 3] ^= 0x20;
    damaged.push(['a byte of a token changed (its CRC-32)', flipped]);
    // a table written without its CRC-32 (a node without zlib.crc32) is checked entry by entry
    edit('no CRC-32, and a start that goes back', (w) => {
      w[5] = 0;
      w[8 + 500] = w[8 + 499];
    });
    edit('no CRC-32, and a slot naming no rank', (w) => {
      w[5] = 0;
      const n = w[2];
      let i = 8 + n + 1;
      while (w[i] !== 0) i++;
      w[i] = n + 7;
    });
    for (const [what, bytes] of damaged) {
      writeFileSync(file, bytes);
      const got = loadRankTable('cl100k_base', file);
      assert.equal(Buffer.from(got.bytesOf(0)).toString(), String(pkg[0]), `${what}: the package table`);
      assert.equal(got.size, MERGEABLE.cl100k_base, what);
      assert.ok(Buffer.from(readFileSync(file)).equals(Buffer.from(good)), `${what}: the copy was written anew`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a copy written with its CRC-32 carries it; one written without is read when its layout holds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-ranks-'));
  try {
    const file = join(dir, 'cl100k_base.bpe');
    const pkg = packageRanks('cl100k_base');
    const marked = [...pkg];
    [marked[0], marked[1]] = [marked[1], marked[0]];
    const bytes = RankTable.build(marked).bytes().slice();
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, 8);
    assert.notEqual(words[5], 0, 'the build wrote the CRC-32');
    words[5] = 0;
    writeFileSync(file, bytes);
    assert.equal(Buffer.from(loadRankTable('cl100k_base', file).bytesOf(0)).toString(), String(pkg[1]), 'the copy without a CRC was read');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a copy that cannot be written (its folder is a file): the package table, nothing thrown', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-ranks-'));
  try {
    writeFileSync(join(dir, 'file'), 'x');
    const t = loadRankTable('cl100k_base', join(dir, 'file', 'cl100k_base.bpe'));
    assert.equal(t.size, MERGEABLE.cl100k_base);
    assert.equal(Buffer.from(t.bytesOf(15339)).toString(), String(packageRanks('cl100k_base')[15339]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two ranks with the same bytes are refused when a table is built', () => {
  assert.throws(() => RankTable.build(['a', 'b', [0x61]]), /ranks 0 and 2 have the same bytes/);
});

test("the copy's place: under the cache, named by the encoding, gpt-tokenizer's version and the layout's format", () => {
  const { version } = require('gpt-tokenizer/package.json') as { version: string };
  assert.equal(rankTableFile('o200k_base'), join(CACHE_ROOT, 'tokenizers', `gpt-tokenizer-${version}-o200k_base.bpe${TABLE_FORMAT}`));
});
