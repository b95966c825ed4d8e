/**
 * util/fs.ts listFilesSorted, the one sorted recursive file walk: depth first in sorted name order,
 * regular files only (a FIFO is not listed, so nothing reads it), `skip` prunes by name, a file
 * root lists itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { listFilesSorted } from '../../pipeline/util/fs.ts';

test('listFilesSorted: sorted depth first, regular files only (or every entry with { special }), skip by name, a file root is itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-walk-'));
  try {
    for (const p of ['b/z.txt', 'b/a.txt', 'a.txt', 'C/x.txt', 'node_modules/m.js']) {
      mkdirSync(join(dir, p, '..'), { recursive: true });
      writeFileSync(join(dir, p), p);
    }
    execFileSync('mkfifo', [join(dir, 'b', 'fifo')]);
    const rel = (xs: string[]) => xs.map((x) => relative(dir, x));
    assert.deepEqual(rel(listFilesSorted(dir)), ['C/x.txt', 'a.txt', 'b/a.txt', 'b/z.txt', 'node_modules/m.js']);
    assert.deepEqual(rel(listFilesSorted(dir, { skip: (n) => n === 'node_modules' })), ['C/x.txt', 'a.txt', 'b/a.txt', 'b/z.txt']);
    assert.deepEqual(listFilesSorted(join(dir, 'a.txt')), [join(dir, 'a.txt')]);
    // { special: true }: the FIFO is listed too, for a reader that refuses it by name
    assert.deepEqual(rel(listFilesSorted(dir, { special: true })), [
      'C/x.txt',
      'a.txt',
      'b/a.txt',
      'b/fifo',
      'b/z.txt',
      'node_modules/m.js',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
