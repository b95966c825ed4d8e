/**
 * `bench --out` is a folder the user owns (issue 29, round two, item 4): mcpgauge writes its own
 * files into it and nothing else. A symlink is followed (the link stays, the target's files stay
 * where they are); an existing folder keeps its permissions and every file that is not ours; a
 * new folder gets the umask's permissions; a mount point works (each file is renamed within the
 * folder, never across file systems); a crash between two renames (forced by the kill hook
 * MCPGAUGE_TEST_KILL_BEFORE_RENAME) leaves every file old or new, never missing, and the next run
 * sweeps the dead run's temp files. Real `mcpgauge bench` processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAST, errorLines, filesUnder, runCli, snapshot } from './helpers-out.ts';

const REPORT = join(import.meta.dirname, '..', 'data', 'report.json');

const work = () => mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-out-'));
const bench = (out: string, extra: string[] = [], o: Parameters<typeof runCli>[1] = {}) =>
  runCli(['bench', ...FAST, ...extra, '--out', out], { timeoutMs: 120_000, ...o });
const mode = (p: string) => statSync(p).mode & 0o777;
const OURS = [
  'dashboard.html',
  'report.json',
  'tables/arms.arrow',
  'tables/arms.parquet',
  'tables/per_query.arrow',
  'tables/per_query.parquet',
  'tables/per_tool.arrow',
  'tables/per_tool.parquet',
];
const TEMP = /\.tmp-\d+-[0-9a-f]{8}$/;
/** a whole file of its format: its end marker is there (parquet PAR1, Arrow IPC file ARROW1, HTML, JSON) */
function whole(name: string, b: Buffer): boolean {
  const t = b.toString('latin1');
  if (name.endsWith('.parquet')) return t.endsWith('PAR1');
  if (name.endsWith('.arrow')) return t.endsWith('ARROW1');
  if (name.endsWith('.html')) return t.trimEnd().endsWith('</html>');
  JSON.parse(b.toString('utf8'));
  return true;
}

test('--out onto a symlink writes into its target: the link stays a link, the target keeps its files and permissions', async () => {
  const w = work();
  try {
    const target = join(w, 'real-results');
    mkdirSync(target);
    chmodSync(target, 0o755);
    writeFileSync(join(target, 'notes.md'), 'mine\n');
    const link = join(w, 'out-link');
    symlinkSync(target, link);
    const r = await bench(link);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(lstatSync(link).isSymbolicLink(), '--out is still the symlink');
    assert.equal(readlinkSync(link), target);
    assert.equal(mode(target), 0o755, 'the target keeps its permissions');
    assert.equal(readFileSync(join(target, 'notes.md'), 'utf8'), 'mine\n', "the user's file is still in the target");
    assert.deepEqual(filesUnder(target), [...OURS, 'notes.md'].sort());
    assert.deepEqual(readdirSync(w).sort(), ['out-link', 'real-results'], 'nothing staged beside --out');
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});

test('an existing --out keeps its permissions (0755) and every file that is not ours, also inside tables/', async () => {
  const w = work();
  try {
    const out = join(w, 'out');
    mkdirSync(join(out, 'tables'), { recursive: true });
    mkdirSync(join(out, 'mine'));
    chmodSync(out, 0o755);
    writeFileSync(join(out, 'README.txt'), 'user file\n');
    writeFileSync(join(out, 'mine', 'a.txt'), 'a\n');
    writeFileSync(join(out, 'tables', 'extra.csv'), 'x,y\n');
    writeFileSync(join(out, 'report.json'), '{"old": true}\n');
    const ino = statSync(out).ino;
    const r = await bench(out);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(mode(out), 0o755, 'permissions kept');
    assert.equal(statSync(out).ino, ino, 'the same folder, not a replacement');
    assert.deepEqual(filesUnder(out), [...OURS, 'README.txt', 'mine/a.txt', 'tables/extra.csv'].sort());
    assert.equal(readFileSync(join(out, 'README.txt'), 'utf8'), 'user file\n');
    assert.equal(readFileSync(join(out, 'tables', 'extra.csv'), 'utf8'), 'x,y\n');
    assert.match(readFileSync(join(out, 'report.json'), 'utf8'), /"report_version"/, 'our report.json replaced');
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});

test('a missing --out is created with the umask permissions (umask 022: 0755), not 0700', async () => {
  const w = work();
  try {
    const out = join(w, 'new', 'out');
    const r = await bench(out, [], { umask: '022' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(mode(out), 0o755);
    assert.equal(mode(join(out, 'tables')), 0o755);
    assert.equal(statSync(join(out, 'report.json')).mode & 0o777, 0o644);
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});

test('a dangling symlink as --out fails at once in one line (exit 2); the link is left as it was', async () => {
  const w = work();
  try {
    const link = join(w, 'out');
    symlinkSync(join(w, 'gone'), link);
    const r = await bench(link);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(errorLines(r)[0], /--out .*out: is a symlink to a missing target/);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.deepEqual(readdirSync(w), ['out']);
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});

test('--out on a mount point (tmpfs) is written in place: no EXDEV, the mount and its user file stay', async (t) => {
  const w = work();
  const out = join(w, 'mnt');
  mkdirSync(out);
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=32m,mode=0750', 'tmpfs', out], { encoding: 'utf8' });
  if (m.status !== 0) {
    rmSync(w, { recursive: true, force: true });
    t.skip(
      `cannot mount a tmpfs here (${(m.stderr || m.error?.message || '').trim()}); the writer renames only within --out, see writeFileSet`,
    );
    return;
  }
  try {
    writeFileSync(join(out, 'keep.txt'), 'on the mount\n');
    const dev = statSync(out).dev;
    assert.notEqual(dev, statSync(w).dev, 'a different file system');
    const r = await bench(out);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(statSync(out).dev, dev, 'still the mount');
    assert.equal(mode(out), 0o750);
    assert.deepEqual(filesUnder(out), [...OURS, 'keep.txt'].sort());
    assert.equal(readdirSync(w).length, 1, 'nothing staged beside the mount');
  } finally {
    spawnSync('umount', [out]);
    rmSync(w, { recursive: true, force: true });
  }
});

test('a crash between renames (kill hook) leaves every file old or new, never missing; the next run sweeps the temp files', async () => {
  const w = work();
  try {
    const out = join(w, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'mine.txt'), 'keep\n');
    const first = await bench(out);
    assert.equal(first.status, 0, first.stderr);
    // a different run (one more arm, another seed): every file of its set differs from the first run's
    const second = ['--arms', 'baseline_json,compact_sig', '--seed', '7'];
    const full = await bench(join(w, 'ref'), second);
    assert.equal(full.status, 0, full.stderr);
    const fresh = snapshot(join(w, 'ref'));
    for (const f of OURS) assert.notEqual(fresh[f], snapshot(out)[f], `${f} differs between the two runs`);
    // killed before the 1st rename (all old), the 4th (some new), the 8th = report.json (all but it new)
    for (const k of [1, 4, OURS.length]) {
      const old = snapshot(out);
      const r = await bench(out, second, { env: { MCPGAUGE_TEST_KILL_BEFORE_RENAME: String(k) } });
      assert.equal(r.signal, 'SIGKILL', `killed by the hook before rename ${k}: ${r.stderr}`);
      assert.ok(existsSync(out), '--out still exists');
      const now = snapshot(out);
      const left = Object.keys(now).filter((f) => !TEMP.test(f));
      assert.deepEqual(left, [...OURS, 'mine.txt'].sort(), `after a kill before rename ${k} every file is there`);
      assert.equal(now['mine.txt'], old['mine.txt']);
      const renamed = OURS.filter((f) => now[f] !== old[f]);
      for (const f of renamed) assert.ok(whole(f, Buffer.from(now[f], 'base64')), `${f} is a whole file`);
      assert.equal(renamed.length, k - 1, `the first ${k - 1} renames happened`);
      assert.equal(now['report.json'], old['report.json'], 'report.json is renamed last: still the old one');
      assert.ok(
        Object.keys(now).some((f) => TEMP.test(f)),
        'the dead run left its temp files',
      );
      // each temp file sits beside the file it replaces: every rename stays within one folder (no EXDEV)
      for (const t of Object.keys(now).filter((f) => TEMP.test(f)))
        assert.ok(OURS.includes(t.replace(TEMP, '')), `${t} is beside its target`);
      // the next run completes and sweeps them
      const again = await bench(out);
      assert.equal(again.status, 0, again.stderr);
      assert.deepEqual(filesUnder(out), [...OURS, 'mine.txt'].sort(), 'no temp file left after the next run');
    }
    assert.deepEqual(readdirSync(w).sort(), ['out', 'ref'], 'no hidden staging folder beside --out');
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});

test('diff --out uses the same writer: onto a symlink, the target keeps its permissions and files', async () => {
  const w = work();
  try {
    const target = join(w, 'diffs');
    mkdirSync(target);
    chmodSync(target, 0o755);
    writeFileSync(join(target, 'notes.md'), 'mine\n');
    const link = join(w, 'out');
    symlinkSync(target, link);
    const r = await runCli(['diff', REPORT, REPORT, '--out', link], { timeoutMs: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(mode(target), 0o755);
    assert.deepEqual(filesUnder(target), ['diff.json', 'diff.md', 'notes.md']);
    assert.deepEqual(readdirSync(w).sort(), ['diffs', 'out']);
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
});
