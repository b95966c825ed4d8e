/**
 * Every input mcpgauge reads is a regular file under a size limit (issue 29, round two, item 5).
 * A FIFO, a character device, a socket or a folder where a file is expected is refused in one
 * line naming the path and what it is (exit 2) without being opened, so nothing blocks; a file
 * over the limit (default 256 MiB; `--max-input-mb`, MCPGAUGE_MAX_INPUT_MB) is refused before a
 * byte is read, so memory stays small. Real `mcpgauge` processes, real FIFOs (mkfifo), /dev/zero,
 * a real unix socket, a sparse 300 MiB file; each run has a deadline and an RSS ceiling. The read
 * itself is bounded too (a procfs file that stat calls empty stops at the limit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FAST, errorLines, runCli, type Run } from './helpers-out.ts';

const REPORT = resolve(import.meta.dirname, '..', 'data', 'report.json');
const work = () => mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-in-'));
const fifo = (p: string) => {
  const r = spawnSync('mkfifo', [p], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return p;
};
/** refused: exit 2, within the deadline, one error line matching `why`, small RSS, nothing written to `out` */
function refused(r: Run, why: RegExp, rssMb = 250): void {
  assert.equal(r.killed, undefined, `killed for ${r.killed} after ${r.ms} ms (RSS ${r.maxRssMb.toFixed(0)} MiB): the input was read`);
  assert.equal(r.status, 2, r.stderr);
  const lines = errorLines(r);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], why);
  assert.ok(r.maxRssMb < rssMb, `RSS ${r.maxRssMb.toFixed(0)} MiB`);
}
const opts = { timeoutMs: 20_000, rssLimitMb: 1024 };

test('bench --corpus FIFO is refused at once in one line (it used to block forever)', async () => {
  const w = work();
  try {
    const f = fifo(join(w, 'corpus.json'));
    const r = await runCli(['bench', ...FAST, '--corpus', f, '--out', join(w, 'out')], opts);
    refused(r, /corpus\.json: is a FIFO \(named pipe\), expected a JSON file/);
    assert.deepEqual(readdirSync(w), ['corpus.json'], 'no --out written');
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});

test('diff ok.json FIFO (and FIFO ok.json) is refused in one line, exit 2 (it used to block forever)', async () => {
  const w = work();
  try {
    const f = fifo(join(w, 'new.json'));
    refused(await runCli(['diff', REPORT, f], opts), /new\.json: is a FIFO \(named pipe\)/);
    refused(await runCli(['diff', f, REPORT], opts), /new\.json: is a FIFO \(named pipe\)/);
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});

test('bench --corpus /dev/zero is refused before a byte is read: exit 2, small RSS (it reached 8.5 GB)', async () => {
  const w = work();
  try {
    const r = await runCli(['bench', ...FAST, '--corpus', '/dev/zero', '--out', join(w, 'out')], opts);
    refused(r, /\/dev\/zero: is a character device, expected a JSON file/);
    assert.deepEqual(readdirSync(w), []);
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});

test('a 300 MiB corpus file is over the default 256 MiB limit: refused by its size, before it is read', async () => {
  const w = work();
  try {
    const big = join(w, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 300 * 1024 * 1024); // sparse: costs no disk
    const r = await runCli(['bench', ...FAST, '--corpus', big, '--out', join(w, 'out')], opts);
    refused(
      r,
      /big\.json: 300\.0 MiB is over the input size limit of 256\.0 MiB \(raise it with --max-input-mb or MCPGAUGE_MAX_INPUT_MB\)/,
      200,
    );
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});

test('the limit is set by --max-input-mb or MCPGAUGE_MAX_INPUT_MB; a bad value is one line, exit 2', async () => {
  const w = work();
  try {
    const out = join(w, 'out');
    // the default corpus is ~42 KB: over a 0.02 MiB limit, under 1 MiB
    refused(
      await runCli(['bench', ...FAST, '--max-input-mb', '0.02', '--out', out], opts),
      /corpus-npm4-v1\.tools\.json: 0\.0\d+ MiB is over the input size limit of 0\.020 MiB/,
    );
    refused(
      await runCli(['bench', ...FAST, '--out', out], { ...opts, env: { MCPGAUGE_MAX_INPUT_MB: '0.02' } }),
      /is over the input size limit of 0\.020 MiB/,
    );
    refused(
      await runCli(['diff', REPORT, REPORT, '--max-input-mb', '0.01'], opts),
      /report\.json: .* is over the input size limit of 0\.010 MiB/,
    );
    refused(
      await runCli(['bench', ...FAST, '--max-input-mb', 'lots', '--out', out], opts),
      /--max-input-mb must be a positive number of MiB, got "lots"/,
    );
    const ok = await runCli(['bench', ...FAST, '--out', out], { ...opts, env: { MCPGAUGE_MAX_INPUT_MB: '1' } });
    assert.equal(ok.status, 0, ok.stderr);
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});

test('other inputs: a FIFO golden set, gate config, proxy config, result fixtures; a socket corpus; a folder as result fixtures; a FIFO ToolRet shard; a FIFO in a corpus fetch mirror', async () => {
  const w = work();
  const sock = join(w, 'corpus.sock');
  const server = createServer();
  await new Promise<void>((r) => server.listen(sock, r));
  try {
    const f = fifo(join(w, 'in.json'));
    const out = join(w, 'out');
    const isFifo = /in\.json: is a FIFO \(named pipe\)/;
    refused(await runCli(['bench', ...FAST, '--golden', f, '--out', out], opts), isFifo);
    refused(await runCli(['bench', ...FAST, '--result-fixtures', f, '--out', out], opts), isFifo);
    refused(await runCli(['gate', '--config', f, '--out', out], opts), isFifo);
    refused(await runCli(['proxy', '--config', f], opts), isFifo);
    refused(await runCli(['corpus', 'validate', f], opts), isFifo);
    refused(await runCli(['bench', ...FAST, '--corpus', sock, '--out', out], opts), /corpus\.sock: is a socket, expected a JSON file/);
    refused(await runCli(['bench', ...FAST, '--result-fixtures', w, '--out', out], opts), /: is a folder, expected a JSON file/);
    const tr = join(w, 'toolret');
    mkdirSync(join(tr, 'tools'), { recursive: true });
    mkdirSync(join(tr, 'queries'), { recursive: true });
    fifo(join(tr, 'tools', 'web.parquet'));
    fifo(join(tr, 'queries', 'web.parquet'));
    refused(
      await runCli(['bench', ...FAST, '--corpus', tr, '--out', out], opts),
      /tools\/web\.parquet: is a FIFO \(named pipe\), expected a parquet file/,
    );
    // an offline mirror for `corpus fetch --from` whose tools.json is a FIFO
    const mirror = join(w, 'mirror');
    mkdirSync(join(mirror, 'livemcptool'), { recursive: true });
    fifo(join(mirror, 'livemcptool', 'tools.json'));
    refused(
      await runCli(['corpus', 'fetch', '--from', mirror, '--only', 'livemcptool', '--cache', join(w, 'cache')], opts),
      /livemcptool\/tools\.json: is a FIFO \(named pipe\), expected a JSON file/,
    );
  } finally {
    await new Promise((r) => server.close(r));
    rmSync(w, { recursive: true, force: true });
  }
});

test('the read itself is bounded: a file whose size grows past its stat (procfs reports 0) stops at the limit', async () => {
  // /proc/self/maps is a regular file that stat says is empty; the bounded read stops past the limit
  const { readInputFile, setMaxInputMb } = await import('../../pipeline/util/fs.ts');
  setMaxInputMb(1 / 1024); // 1 KiB
  try {
    assert.throws(
      () => readInputFile('/proc/self/maps'),
      /\/proc\/self\/maps: grew past the input size limit of 0\.001 MiB while read \(raise it with --max-input-mb/,
    );
    setMaxInputMb(64);
    assert.ok(readInputFile('/proc/self/maps').length > 1024, 'read whole under a higher limit');
  } finally {
    setMaxInputMb(undefined);
  }
});
