/**
 * Every documented `make <target> ARGS=...` form (README.md, docs/*.md, scripts/*.mjs headers) composes
 * the mcpgauge command line it should, and `make bench-discovery ARGS="--no-live --out DIR"`
 * really runs (it once failed with "too many arguments for 'bench'").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// @ts-expect-error plain ESM helper without types
import { benchDiscoveryArgs, fetchArgs, freezeArgs, takeOption } from '../../scripts/lib/args.mjs';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { buildProgram } from '../../pipeline/cli.ts';

const root = '/repo';
const defaultOut = join(root, 'results', 'discovery');

test('bench-discovery: every documented ARGS form', () => {
  const b = (words: string[], cachedCorpus?: string): string[] => benchDiscoveryArgs(words, { root, cachedCorpus });
  assert.deepEqual(b([]), ['bench', '--out', defaultOut, '--live']);
  assert.deepEqual(b(['--no-live']), ['bench', '--out', defaultOut]);
  assert.deepEqual(b(['--out', 'x/dir']), ['bench', '--out', resolve('x/dir'), '--live']);
  assert.deepEqual(b(['--out=/abs/dir', '--no-live']), ['bench', '--out', '/abs/dir']);
  assert.deepEqual(b(['--arms', 'baseline_json,compact_sig', '--out', '/o']), [
    'bench',
    '--out',
    '/o',
    '--live',
    '--arms',
    'baseline_json,compact_sig',
  ]);
  assert.deepEqual(b([], '/c/tools.json'), ['bench', '--out', defaultOut, '--live', '--extra-corpus', '/c/tools.json']);
  assert.throws(() => b(['--out']), /--out needs a value/);
  assert.deepEqual(takeOption(['--out', 'a', '--out=b', 'c'], '--out'), { value: 'b', rest: ['c'] });
});

test('fetch and freeze: documented ARGS / env forms', () => {
  assert.deepEqual(fetchArgs([], {}), ['corpus', 'fetch']);
  assert.deepEqual(fetchArgs([], { FROM: '/mirror' }), ['corpus', 'fetch', '--from', '/mirror']);
  assert.deepEqual(fetchArgs(['--from', '/m2'], { FROM: '/mirror' }), ['corpus', 'fetch', '--from', '/m2']);
  assert.deepEqual(freezeArgs([]), ['corpus', 'freeze', '--next-version']);
  assert.deepEqual(freezeArgs(['--version', 'corpus-npm4-v2']), ['corpus', 'freeze', '--version', 'corpus-npm4-v2']);
  assert.deepEqual(freezeArgs(['--with-fixture']), ['corpus', 'freeze', '--with-fixture', '--next-version']);
});

test('every composed command line parses with the real CLI (no "too many arguments")', () => {
  const lines = [
    benchDiscoveryArgs(['--no-live', '--out', '/tmp/x'], { root }),
    benchDiscoveryArgs(['--out=/tmp/x', '--arms', 'baseline_json'], { root }),
    fetchArgs(['--from', '/m'], {}),
    freezeArgs(['--version', 'corpus-npm4-v9', '--with-fixture']),
  ];
  for (const argv of lines) {
    const program = buildProgram();
    const sub = program.commands.find((c) => c.name() === argv[0])!;
    const leaf = sub.commands.length ? sub.commands.find((c) => c.name() === argv[1])! : sub;
    leaf.action(() => {}); // parse only
    program.parse(['node', 'mcpgauge', ...argv]);
  }
});

test('make bench-discovery ARGS="--no-live --out DIR" writes the report into DIR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-make-'));
  try {
    const out = join(dir, 'out');
    // -o: treat the dependency stamp as up to date (never reinstall node_modules from a test)
    const r = spawnSync(
      'make',
      [
        '-s',
        '-o',
        'node_modules/.mcpgauge-installed',
        'bench-discovery',
        `ARGS=--no-live --out ${out} --arms baseline_json --bootstrap 20`,
      ],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(join(out, 'report.json')), r.stdout);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    assert.deepEqual(
      report.arms.map((a: { arm: string }) => a.arm),
      ['baseline_json'],
    );
    assert.equal(report.live, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
