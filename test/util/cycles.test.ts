/** The import-cycle check run by `make test` (scripts/check-cycles.mjs) finds cycles and layering breaks, and the repository has none. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error plain ESM helper without types
import { describeCycles, findCycles, importGraph, layerViolations } from '../../scripts/lib/cycles.mjs';
import { REPO_ROOT } from '../../pipeline/constants.ts';

test('a static, a dynamic and a type-only cycle are each found; an acyclic tree is clean', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpgauge-cycles-'));
  try {
    mkdirSync(join(root, 'pipeline', 'cli'), { recursive: true });
    const w = (f: string, text: string) => writeFileSync(join(root, 'pipeline', f), text);
    w('a.ts', "import { b } from './b.ts';\nexport const a = 1;\n");
    w('b.ts', "export const b = async () => (await import('./c.ts')).c;\n");
    w('c.ts', "import type { A } from './d.ts';\nimport { a } from './a.ts';\nexport const c = a;\nexport type C = A;\n");
    w('d.ts', 'export type A = number;\n');
    w('e.ts', "import type { F } from './f.ts';\nexport type E = F;\n");
    w('f.ts', "import type { E } from './e.ts';\nexport type F = E | 1;\n");
    w('server.ts', "import { run } from './cli/x.ts';\nexport const s = run;\n");
    w('cli/x.ts', 'export const run = 1;\n');
    const graph = importGraph(root, ['pipeline']);
    const lines = describeCycles(root, findCycles(graph)).sort();
    assert.deepEqual(lines, [
      'import cycle: pipeline/a.ts <-> pipeline/b.ts <-> pipeline/c.ts',
      'import cycle: pipeline/e.ts <-> pipeline/f.ts',
    ]);
    assert.deepEqual(
      layerViolations(root, graph, ['pipeline'], ['pipeline/cli']).filter((l: string) => !l.startsWith('pipeline/cli')),
      ['pipeline/server.ts -> pipeline/cli/x.ts'],
    );
    w('f.ts', 'export type F = 1;\n');
    w('b.ts', 'export const b = 2;\n');
    assert.deepEqual(findCycles(importGraph(root, ['pipeline'])), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the repository has no import cycle and no library/server module importing the CLI', () => {
  const r = spawnSync(process.execPath, ['scripts/check-cycles.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^import cycles: none/);
});
