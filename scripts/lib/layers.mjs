// Folder-level layering of pipeline/ and arms/ (docs/layers.json): which top-level folder
// imports which, and every edge that does not go down a layer (a back arrow). The file graph is
// scripts/lib/cycles.mjs importGraph (relative imports: static, dynamic and type-only).
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { importGraph } from './cycles.mjs';

/** the layer node of a repository file: 'arms', a pipeline folder, or a pipeline root file */
export function nodeOf(root, file) {
  const p = relative(root, file).split(/[\\/]/);
  if (p[0] === 'arms') return 'arms';
  // pipeline/<folder>/... -> folder; pipeline/<file>.ts -> the file name
  return p[0] === 'pipeline' ? p[1] : null;
}

export function loadLayers(root) {
  return JSON.parse(readFileSync(resolve(root, 'docs', 'layers.json'), 'utf8'));
}

/** folder edges "a -> b" with the file imports behind each */
export function folderEdges(root) {
  const graph = importGraph(root, ['pipeline', 'arms']);
  const edges = new Map();
  for (const [f, deps] of graph) {
    for (const d of deps) {
      const a = nodeOf(root, f);
      const b = nodeOf(root, d);
      if (!a || !b || a === b) continue;
      const k = `${a} -> ${b}`;
      if (!edges.has(k)) edges.set(k, { from: a, to: b, files: [] });
      edges.get(k).files.push(`${relative(root, f)} -> ${relative(root, d)}`);
    }
  }
  return [...edges.values()].sort((x, y) => `${x.from} ${x.to}`.localeCompare(`${y.from} ${y.to}`));
}

/**
 * Check the graph of `root` against `layers` (default: root's docs/layers.json): back arrows
 * (edges to the same or a higher layer), nodes the layers do not name, and the exceptions.
 */
export function checkLayers(root, layers = loadLayers(root)) {
  const rank = new Map();
  layers.layers.forEach((l, i) => l.nodes.forEach((n) => rank.set(n, i)));
  const edges = folderEdges(root);
  const unknown = [...new Set(edges.flatMap((e) => [e.from, e.to]).filter((n) => !rank.has(n)))].sort();
  const back = edges.filter((e) => rank.has(e.from) && rank.has(e.to) && rank.get(e.to) >= rank.get(e.from));
  const isException = (e) => layers.exceptions.some((x) => x.from === e.from && x.to === e.to);
  return {
    edges,
    back,
    unlisted: back.filter((e) => !isException(e)),
    stale: layers.exceptions.filter((x) => !back.some((e) => e.from === x.from && e.to === x.to)),
    unknown,
  };
}

/** folders whose public face is their index.ts: another folder imports that file only */
export const FACES = ['retrieval', 'report'];

/** imports from another folder into an inner file of a face folder: ["from -> to"] (relative paths) */
export function faceViolations(root, faces = FACES) {
  const out = [];
  for (const e of folderEdges(root)) {
    if (!faces.includes(e.to)) continue;
    for (const f of e.files) if (!f.endsWith(`pipeline/${e.to}/index.ts`)) out.push(f);
  }
  return out.sort();
}
