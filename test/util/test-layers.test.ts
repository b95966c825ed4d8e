/**
 * The unit layer (`make test-quick`, scripts/lib/test-layers.mjs UNIT) holds: every listed file
 * exists and imports nothing that starts a process, server, socket or browser (itself or through
 * the test/ helpers it imports), the check catches a planted one, and the guard the quick run
 * preloads (scripts/lib/unit-guard.mjs) really refuses spawn, listen and connect in a test file's
 * process while leaving the runner's own process alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { UNIT, unitViolations } from '../../scripts/lib/test-layers.mjs';

function suiteFiles(dir = join(REPO_ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? suiteFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [relative(REPO_ROOT, join(dir, e.name))] : [],
  );
}

const GUARD = pathToFileURL(join(REPO_ROOT, 'scripts', 'lib', 'unit-guard.mjs')).href;

test('UNIT: sorted, unique test files of the suite, none importing what starts a process, server or browser', () => {
  assert.ok(UNIT.length >= 30, `UNIT has ${UNIT.length} files`);
  assert.deepEqual([...UNIT].sort(), UNIT, 'UNIT is sorted');
  assert.equal(new Set(UNIT).size, UNIT.length, 'UNIT has no duplicate');
  const suite = new Set(suiteFiles());
  for (const f of UNIT) assert.ok(suite.has(f), `${f}: listed in UNIT but not a test file of the suite`);
  assert.deepEqual(unitViolations(REPO_ROOT), []);
  // this file spawns (it checks the guard below): it cannot be one of them
  assert.ok(!UNIT.includes('test/util/test-layers.test.ts'));
});

test('unitViolations names a planted file that imports a launcher, directly or through a test/ helper', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpgauge-layers-'));
  try {
    mkdirSync(join(root, 'test', 'x'), { recursive: true });
    writeFileSync(join(root, 'test', 'x', 'clean.test.ts'), "import { test } from 'node:test';\nimport { x } from './pure.ts';\n");
    writeFileSync(join(root, 'test', 'x', 'pure.ts'), "import { join, relative } from 'node:path';\nexport const x = join('a');\n");
    writeFileSync(join(root, 'test', 'x', 'direct.test.ts'), "import { spawn } from 'node:child_process';\n");
    writeFileSync(
      join(root, 'test', 'x', 'helper.ts'),
      "import { startProxy } from '../../pipeline/proxy/index.ts';\nexport const h = 1;\n",
    );
    writeFileSync(
      join(root, 'test', 'x', 'indirect.test.ts'),
      "import { h } from './helper.ts';\nconst b = await import('playwright-core');\n",
    );
    const files = ['test/x/clean.test.ts', 'test/x/direct.test.ts', 'test/x/indirect.test.ts', 'test/x/gone.test.ts'];
    assert.deepEqual(unitViolations(root, files), [
      'test/x/direct.test.ts: imports node:child_process',
      'test/x/indirect.test.ts: via test/x/helper.ts: imports ../../pipeline/proxy/index.ts',
      'test/x/indirect.test.ts: imports playwright-core',
      'test/x/gone.test.ts: listed in UNIT but missing',
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the unit guard: in a test file process, spawn, listen and connect throw; the runner process is untouched', () => {
  const probe = [
    "const cp = await import('node:child_process');",
    "const net = await import('node:net');",
    'const out = {};',
    "try { cp.spawnSync(process.execPath, ['-e', '0']); out.spawnSync = 'ran'; } catch (e) { out.spawnSync = e.message; }",
    "try { cp.execFile(process.execPath, ['-e', '0']).kill(); out.execFile = 'ran'; } catch (e) { out.execFile = e.message; }",
    "try { const s = net.createServer(); s.listen(0, '127.0.0.1'); s.close(); out.listen = 'ran'; } catch (e) { out.listen = e.message; }",
    "try { const c = net.connect(9, '127.0.0.1'); c.on('error', () => {}); c.destroy(); out.connect = 'ran'; } catch (e) { out.connect = e.message; }",
    'console.log(JSON.stringify(out));',
  ].join('\n');
  const run = (env: NodeJS.ProcessEnv) => {
    const r = spawnSync(process.execPath, ['--import', GUARD, '--input-type=module', '-e', probe], {
      encoding: 'utf8',
      env,
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, string>;
  };
  const { NODE_TEST_CONTEXT: _, ...outside } = process.env;
  const inFile = run({ ...outside, NODE_TEST_CONTEXT: 'child-v8' });
  for (const k of ['spawnSync', 'execFile', 'listen', 'connect'])
    assert.match(inFile[k], /^unit layer: .* is not allowed in a unit-layer test/, `${k}: ${inFile[k]}`);
  assert.deepEqual(run(outside), { spawnSync: 'ran', execFile: 'ran', listen: 'ran', connect: 'ran' });
});

test('make test-quick runs scripts/test-quick.mjs, which runs UNIT through scripts/test.mjs with the guard', () => {
  const make = readFileSync(join(REPO_ROOT, 'Makefile'), 'utf8');
  assert.match(make, /^test-quick: deps build\n\t\$\(NODE\) scripts\/test-quick\.mjs/m);
  assert.match(make, /^test: deps build lint\n\t\$\(NODE\) scripts\/test\.mjs \$\(ARGS\)$/m, 'make test stays the full suite');
  const quick = readFileSync(join(REPO_ROOT, 'scripts', 'test-quick.mjs'), 'utf8');
  assert.match(quick, /unit-guard\.mjs/);
  assert.match(quick, /'test\.mjs'\), \.\.\.UNIT\]/);
});
