#!/usr/bin/env node
// Prints the folder-level back arrows of a tree (default: this repository) against THIS
// repository's docs/layers.json: `node scripts/check-layers.mjs [root]`. Exit 1 when any back
// arrow is not a listed exception (test/architecture.test.ts asserts the same).
import { resolve } from 'node:path';
import { checkLayers, faceViolations, loadLayers } from './lib/layers.mjs';

const here = resolve(import.meta.dirname, '..');
const root = resolve(process.argv[2] ?? here);
const r = checkLayers(root, loadLayers(here));
for (const e of r.back)
  console.log(`back arrow: ${e.from} -> ${e.to}${r.unlisted.includes(e) ? '' : ' (listed exception)'}\n    ${e.files.join('\n    ')}`);
for (const n of r.unknown) console.log(`not in docs/layers.json: ${n}`);
for (const x of r.stale) console.log(`listed exception no longer occurs: ${x.from} -> ${x.to}`);
const faces = faceViolations(root);
for (const f of faces) console.log(`past a folder's face (import its index.ts): ${f}`);
console.log(
  `${r.edges.length} folder edges, ${r.back.length} back arrow(s), ${r.unlisted.length} not listed, ${faces.length} import(s) past a face`,
);
process.exit(r.unlisted.length || r.unknown.length || faces.length ? 1 : 0);
