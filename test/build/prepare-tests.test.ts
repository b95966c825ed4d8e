/**
 * scripts/prepare-tests.mjs (`make prepare-tests`; .ci/run starts it with `--sources --no-image`
 * beside tsc): its flags, and that `--sources` really loads the build modules from pipeline/*.ts.
 * The build asked for is toxiproxy on a machine without Go (MCPGAUGE_GO empty) and an empty cache,
 * in a tree without dist/: from the sources it runs and gives the reason
 * pipeline/gate/network/toxiproxy.ts words, from dist/ it cannot load; nothing is built.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../pipeline/constants.ts';

function prepare(args: string[], env: Record<string, string> = {}, root = REPO_ROOT) {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'prepare-tests.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  return { code: r.status, lines: r.stderr.split('\n').filter(Boolean), stdout: r.stdout };
}

test('prepare-tests: an unknown flag or build id, or nothing to make, is one line, exit 2, and nothing starts', () => {
  for (const [args, says] of [
    [['--bogus'], /^prepare: Unknown option '--bogus' \(flags: --sources, --no-image, --only ID,\.\.\.\)$/],
    [['--only', 'toxiproxy,nope'], /^prepare: --only: unknown build "nope" \(ids: toxiproxy, actionlint, conformance, lap, image\)$/],
    [['stray'], /^prepare: Unexpected argument 'stray'/],
    [['--only', 'image', '--no-image'], /^prepare: nothing to make \(--only "image" with --no-image\)$/],
    [['--only', ''], /^prepare: nothing to make \(--only ""\)$/],
  ] as const) {
    const r = prepare([...args]);
    assert.equal(r.code, 2, r.lines.join('\n'));
    assert.equal(r.lines.length, 1, r.lines.join('\n'));
    assert.match(r.lines[0], says);
  }
});

test('prepare-tests --sources loads the build from pipeline/*.ts, so it runs before dist/ exists', () => {
  // a tree with the script, the sources and node_modules but no dist/ (the state .ci/run starts it in)
  const tree = mkdtempSync(join(tmpdir(), 'mcpgauge-prepare-'));
  const cache = join(tree, 'cache');
  try {
    mkdirSync(join(tree, 'scripts'));
    copyFileSync(join(REPO_ROOT, 'scripts', 'prepare-tests.mjs'), join(tree, 'scripts', 'prepare-tests.mjs'));
    copyFileSync(join(REPO_ROOT, 'package.json'), join(tree, 'package.json'));
    for (const d of ['pipeline', 'node_modules']) symlinkSync(join(REPO_ROOT, d), join(tree, d));
    const run = (args: string[]) => prepare(args, { MCPGAUGE_GO: '', MCPGAUGE_CACHE_DIR: cache }, tree);
    const end = (r: ReturnType<typeof run>) => r.lines.find((l) => l.startsWith('prepare: toxiproxy not made')) ?? r.lines.join('\n');
    // from the sources: the module ran and gave its own reason (no Go on this "machine")
    const src = run(['--sources', '--only', 'toxiproxy']);
    assert.equal(src.code, 2, src.lines.join('\n'));
    assert.equal(src.lines[0], 'prepare: toxiproxy ...', 'only the build asked for starts');
    assert.match(end(src), /toxiproxy v2\.5\.0 is not built \(.*\) and Go is missing/);
    assert.ok(!src.lines.some((l) => /actionlint|conformance|lap venv|fixture image/.test(l)), src.lines.join('\n'));
    // without --sources the same build needs dist/, which this tree does not have
    const compiled = run(['--only', 'toxiproxy']);
    assert.equal(compiled.code, 2, compiled.lines.join('\n'));
    assert.match(end(compiled), /dist\/pipeline\/gate\/network\/toxiproxy\.js/);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});
