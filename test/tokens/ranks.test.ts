/**
 * gpt-tokenizer's BPE tables through tokens/ranks.ts: the JSON copy kept under the cache holds
 * exactly the package's table, a later load reads the copy, a copy that is not the table's length
 * or not JSON is ignored (the package's file is loaded, and the copy written anew), and a copy
 * that cannot be written changes nothing but the speed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRanks, MERGEABLE, ranksCacheFile, type Ranks } from '../../pipeline/tokens/ranks.ts';
import { CACHE_ROOT, TOKENIZER_NAMES } from '../../pipeline/constants.ts';

const require = createRequire(import.meta.url);
const pkgTable = (name: string) => (require(`gpt-tokenizer/bpeRanks/${name}`) as { default: Ranks }).default;

test('the copy is the package table, entry for entry (text and byte tokens), for both encodings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-ranks-'));
  try {
    for (const name of TOKENIZER_NAMES) {
      const file = join(dir, `${name}.json`);
      const first = loadRanks(name, file);
      assert.ok(existsSync(file), 'the first load wrote the copy');
      const again = loadRanks(name, file);
      const pkg = pkgTable(name);
      assert.equal(pkg.length, MERGEABLE[name]);
      assert.deepEqual(again, pkg);
      assert.deepEqual(first, pkg);
      assert.ok(pkg.some((v) => Array.isArray(v)) && pkg.some((v) => typeof v === 'string'), 'both kinds of entries are in the table');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a later load reads the copy; a copy of another length or not JSON is ignored and written anew', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-ranks-'));
  try {
    const file = join(dir, 'cl100k_base.json');
    const table = [...pkgTable('cl100k_base')];
    // a copy of the right length is what a load returns (here marked, to see it was read)
    table[0] = 'MARK';
    writeFileSync(file, JSON.stringify(table));
    assert.equal(loadRanks('cl100k_base', file)[0], 'MARK');
    for (const bad of ['[]', JSON.stringify(table.slice(1)), '{"0":"!"}', JSON.stringify(table).slice(0, 5000), '']) {
      writeFileSync(file, bad);
      const got = loadRanks('cl100k_base', file);
      assert.equal(got[0], '!', 'the package table');
      assert.equal(got.length, MERGEABLE.cl100k_base);
      assert.equal((JSON.parse(readFileSync(file, 'utf8')) as unknown[]).length, MERGEABLE.cl100k_base, 'the copy was written anew');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a copy that cannot be written (its folder is a file): the package table, nothing thrown', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-ranks-'));
  try {
    writeFileSync(join(dir, 'file'), 'x');
    assert.deepEqual(loadRanks('cl100k_base', join(dir, 'file', 'cl100k_base.json')), pkgTable('cl100k_base'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the copy's place: under the cache, named by the encoding and gpt-tokenizer's version", () => {
  const { version } = require('gpt-tokenizer/package.json') as { version: string };
  assert.equal(ranksCacheFile('o200k_base'), join(CACHE_ROOT, 'tokenizers', `gpt-tokenizer-${version}-o200k_base.json`));
});
