/**
 * The report folder is one set: a second run that fails mid-write (here: the file-size limit,
 * RLIMIT_FSIZE, makes a large file fail with EFBIG, as a full disk would with ENOSPC) leaves the
 * first run's set exactly as it was, and says which file failed. `--out` is checked before any
 * work. Real `mcpgauge bench` processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'mcpgauge.mjs');
function listFilesRel(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? listFilesRel(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`]))
    .sort();
}
const SMALL = ['--tokenizers', 'cl100k_base', '--bootstrap', '10'];

function bench(args: string[], fsizeKb?: number) {
  const cmd = [process.execPath, BIN, 'bench', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return spawnSync('bash', ['-c', fsizeKb ? `ulimit -f ${fsizeKb}; exec ${cmd}` : `exec ${cmd}`], { encoding: 'utf8', timeout: 240_000 });
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of listFilesRel(dir)) out[f] = readFileSync(join(dir, f)).toString('base64');
  return out;
}

test('a run that fails mid-write leaves the previous report set untouched and names the file', () => {
  const work = mkdtempSync(join(tmpdir(), 'mcpgauge-outset-'));
  try {
    const out = join(work, 'out');
    const first = bench(['--out', out, '--arms', 'baseline_json', ...SMALL]);
    assert.equal(first.status, 0, first.stderr);
    const before = snapshot(out);
    const sizes = Object.keys(before)
      .map((f) => ({ f, size: statSync(join(out, f)).size }))
      .sort((a, b) => a.size - b.size);
    // a limit above the smallest files and below the largest: some files of the new set fit, one does not
    const big = sizes.at(-1)!;
    assert.ok(big.size > 64 * 1024, `largest file ${big.f} is ${big.size} bytes`);
    const limitKb = Math.floor(big.size / 1024 / 2);
    assert.ok(
      sizes.some((s) => s.size < limitKb * 1024),
      'some files fit under the limit',
    );
    const second = bench(['--out', out, '--arms', 'baseline_json,compact_sig', ...SMALL], limitKb);
    assert.notEqual(second.status, 0, 'the failed write must fail the run');
    const line = second.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('mcpgauge:'));
    assert.equal(line.length, 1, second.stderr);
    assert.match(line[0], /--out .*out: cannot write (dashboard\.html|tables\/\S+|report\.json) \(EFBIG/);
    assert.deepEqual(snapshot(out), before, 'the old set is byte-for-byte what it was');
    assert.deepEqual(
      listFilesRel(work),
      listFilesRel(work).filter((f) => f.startsWith('out/')),
      'no staging folder left next to --out',
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('--out is checked before any work: an existing file or a path under a file fails at once, naming --out and the cause', () => {
  const work = mkdtempSync(join(tmpdir(), 'mcpgauge-outset-'));
  try {
    const file = join(work, 'a-file');
    writeFileSync(file, 'x');
    for (const [out, why] of [
      [file, /--out .*a-file: exists and is not a folder/],
      [join(file, 'sub'), /--out .*a-file\/sub: .*a-file is not a folder/],
    ] as const) {
      const r = bench(['--out', out, ...SMALL]);
      assert.equal(r.status, 2, r.stderr); // could not run as asked
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, `one line, no stage ran: ${r.stderr}`);
      assert.match(lines[0], why);
    }
    assert.equal(readFileSync(file, 'utf8'), 'x');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
