/**
 * Folder-level layering (docs/layers.json, docs/architecture.md "Layers"): the import graph of
 * pipeline/ and arms/ folded to top-level folders may only point down the layer order. Every
 * edge to the same or a higher layer is a back arrow; at most 2 are allowed, each named with its
 * reason in docs/layers.json. A back arrow not listed, a listed one that no longer occurs and a
 * folder the layers do not name all fail. `node scripts/check-layers.mjs` prints the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { checkLayers, loadLayers } from '../scripts/lib/layers.mjs';

const ROOT = resolve(import.meta.dirname, '..');

const show = (edges: { from: string; to: string; files: string[] }[]) => edges.map((e) => `${e.from} -> ${e.to} (${e.files.join(', ')})`).join('\n');

test('the folder graph of pipeline/ and arms/ goes down the layer order, apart from at most 2 named exceptions', () => {
  const layers = loadLayers(ROOT);
  assert.ok(layers.exceptions.length <= 2, `at most 2 exceptions, docs/layers.json lists ${layers.exceptions.length}`);
  for (const x of layers.exceptions) assert.ok(typeof x.reason === 'string' && x.reason.length > 20, `${x.from} -> ${x.to}: say why`);
  const r = checkLayers(ROOT, layers);
  assert.ok(r.edges.length > 50, `the graph was read (${r.edges.length} folder edges)`);
  assert.deepEqual(r.unknown, [], 'folders missing from docs/layers.json');
  assert.equal(r.unlisted.length, 0, `back arrows (an import up the layer order):\n${show(r.unlisted)}`);
  assert.deepEqual(r.stale.map((x) => `${x.from} -> ${x.to}`), [], 'listed exceptions that no longer occur: remove them from docs/layers.json');
  assert.ok(r.back.length <= 2);
});

test('the check sees a back arrow, a dynamic import, a type-only import and an unknown folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-layers-'));
  try {
    const put = (p: string, text: string) => {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), text);
    };
    put('pipeline/util/a.ts', "export const a = 1;\nexport async function f() { return import('../report/r.ts'); }\n");
    put('pipeline/report/r.ts', "import type { T } from '../gate/g.ts';\nexport const r: T = 1;\n");
    put('pipeline/gate/g.ts', "import { a } from '../util/a.ts';\nexport type T = number;\nexport const g = a;\n");
    put('pipeline/newfolder/n.ts', "import { g } from '../gate/g.ts';\nexport const n = g;\n");
    put('arms/x.ts', "import { r } from '../pipeline/report/r.ts';\nexport const x = r;\n");
    const layers = {
      layers: [{ nodes: ['util'] }, { nodes: ['arms'] }, { nodes: ['report'] }, { nodes: ['gate'] }],
      exceptions: [{ from: 'util', to: 'report', reason: 'a listed one' }, { from: 'gate', to: 'arms', reason: 'listed, never imported' }],
    };
    const r = checkLayers(dir, layers);
    assert.deepEqual(r.back.map((e) => `${e.from} -> ${e.to}`), ['arms -> report', 'report -> gate', 'util -> report']);
    assert.deepEqual(r.unlisted.map((e) => `${e.from} -> ${e.to}`), ['arms -> report', 'report -> gate']);
    assert.deepEqual(r.stale.map((x) => `${x.from} -> ${x.to}`), ['gate -> arms']);
    assert.deepEqual(r.unknown, ['newfolder']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
