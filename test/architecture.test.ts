/**
 * Folder-level layering (docs/layers.json, docs/architecture.md "Layers"): the import graph of
 * pipeline/ and arms/ folded to top-level folders may only point down the layer order. Every
 * edge to the same or a higher layer is a back arrow; at most 2 are allowed, each named with its
 * reason in docs/layers.json. A back arrow not listed, a listed one that no longer occurs and a
 * folder the layers do not name all fail. `node scripts/check-layers.mjs` prints the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { checkLayers, faceViolations, FACES, loadLayers } from '../scripts/lib/layers.mjs';
import { longFunctions, longFunctionsIn } from '../scripts/lib/long-functions.mjs';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');

const show = (edges: { from: string; to: string; files: string[] }[]) =>
  edges.map((e) => `${e.from} -> ${e.to} (${e.files.join(', ')})`).join('\n');

test('the folder graph of pipeline/ and arms/ goes down the layer order, apart from at most 2 named exceptions', () => {
  const layers = loadLayers(ROOT);
  assert.ok(layers.exceptions.length <= 2, `at most 2 exceptions, docs/layers.json lists ${layers.exceptions.length}`);
  for (const x of layers.exceptions) assert.ok(typeof x.reason === 'string' && x.reason.length > 20, `${x.from} -> ${x.to}: say why`);
  const r = checkLayers(ROOT, layers);
  assert.ok(r.edges.length > 50, `the graph was read (${r.edges.length} folder edges)`);
  assert.deepEqual(r.unknown, [], 'folders missing from docs/layers.json');
  assert.equal(r.unlisted.length, 0, `back arrows (an import up the layer order):\n${show(r.unlisted)}`);
  assert.deepEqual(
    r.stale.map((x) => `${x.from} -> ${x.to}`),
    [],
    'listed exceptions that no longer occur: remove them from docs/layers.json',
  );
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
      exceptions: [
        { from: 'util', to: 'report', reason: 'a listed one' },
        { from: 'gate', to: 'arms', reason: 'listed, never imported' },
      ],
    };
    const r = checkLayers(dir, layers);
    assert.deepEqual(
      r.back.map((e) => `${e.from} -> ${e.to}`),
      ['arms -> report', 'report -> gate', 'util -> report'],
    );
    assert.deepEqual(
      r.unlisted.map((e) => `${e.from} -> ${e.to}`),
      ['arms -> report', 'report -> gate'],
    );
    assert.deepEqual(
      r.stale.map((x) => `${x.from} -> ${x.to}`),
      ['gate -> arms'],
    );
    assert.deepEqual(r.unknown, ['newfolder']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- small units: no function in pipeline/ over 100 lines (scripts/check-long-functions.mjs lists them)
test('no function in pipeline/ is longer than 100 lines', () => {
  const long = longFunctions(ROOT, ['pipeline']);
  assert.deepEqual(
    long.map((x) => `${x.file}:${x.line} ${x.name} (${x.lines} lines)`),
    [],
    'split these along the steps they already name',
  );
});

test('the long-function check sees declarations, arrows, methods and nested functions, and stops at the limit', () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');
  const text = [
    `export function longDecl() {\n  let x = 0;\n${body(99)}\n}`, // 102 lines
    `const longArrow = () => {\n${body(100)}\n};`, // 102 lines
    `class K {\n  method() {\n${body(99)}\n  }\n}`, // method: 101 lines
    `function exactly100() {\n${body(98)}\n}`, // 100 lines: allowed
    `function outer() {\n  const inner = function () {\n${body(101)}\n  };\n}`, // outer 105, inner 103
  ].join('\n');
  const got = longFunctionsIn(text, 'x.ts', 100).map((x) => `${x.name} ${x.lines}`);
  assert.deepEqual(got.sort(), ['inner 103', 'longArrow 102', 'longDecl 102', 'method 101', 'outer 105']);
});

// ---- one home each: rules a grep can hold
/** pipeline/ files (relative paths) whose text matches `re`, apart from `home` */
function filesMatching(re: RegExp, home: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && re.test(readFileSync(p, 'utf8'))) out.push(relative(ROOT, p));
    }
  };
  walk(join(ROOT, 'pipeline'));
  return out.filter((f) => !home.includes(f)).sort();
}

test('one home: a process group is signalled only in pipeline/util/proc.ts (stopChild, signalGroup, signalPidGroup)', () => {
  assert.deepEqual(filesMatching(/process\.kill\(\s*-/, ['pipeline/util/proc.ts']), []);
});

test('one home: the JSON-RPC error codes are written as numbers only in pipeline/mcp/envelope.ts (others import the names)', () => {
  const codes = new Set(['32700', '32600', '32601', '32602', '32603']);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && relative(ROOT, p) !== 'pipeline/mcp/envelope.ts') {
        const sf = ts.createSourceFile(p, readFileSync(p, 'utf8'), ts.ScriptTarget.Latest, true);
        const visit = (n: ts.Node) => {
          if (
            ts.isPrefixUnaryExpression(n) &&
            n.operator === ts.SyntaxKind.MinusToken &&
            ts.isNumericLiteral(n.operand) &&
            codes.has(n.operand.text)
          ) {
            out.push(`${relative(ROOT, p)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1} -${n.operand.text}`);
          }
          ts.forEachChild(n, visit);
        };
        visit(sf);
      }
    }
  };
  walk(join(ROOT, 'pipeline'));
  assert.deepEqual(
    out,
    [],
    'use PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR from pipeline/mcp/envelope.ts',
  );
});

test('one home: the sorted recursive file walk is util/fs.ts listFilesSorted (gate/merge.ts lstats its own, never following a link)', () => {
  // the shape of a recursive walk: a sorted listing, then a folder test that descends
  assert.deepEqual(
    filesMatching(/readdirSync\([^)]*\)\.sort\(\)[\s\S]{0,160}isDirectory\(\)/, ['pipeline/util/fs.ts', 'pipeline/gate/merge.ts']),
    [],
  );
});

test('a folder with a public face (scripts/lib/layers.mjs FACES) is imported by other folders through its index.ts only', () => {
  for (const f of ['retrieval', 'report']) assert.ok(FACES.includes(f), f);
  assert.deepEqual(faceViolations(ROOT), [], "import these names from the folder's index.ts");
});
