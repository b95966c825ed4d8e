// Import-cycle finder for the repository's own modules (relative imports of .ts/.mjs/.js files,
// static, dynamic and type-only: a cycle through a type is still a design cycle). Uses the
// TypeScript compiler's import scanner (typescript is already a dependency) and Tarjan's
// strongly connected components. `node scripts/check-cycles.mjs` runs it over pipeline/,
// scripts/ and bin/ and exits 1 when any cycle exists; `make test` runs it first.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXT = /\.(ts|mts|mjs|js)$/;

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (EXT.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** file -> the repository files it imports (relative specifiers only) */
export function importGraph(root, dirs) {
  const files = dirs.flatMap((d) => walk(resolve(root, d), []));
  const known = new Set(files);
  const graph = new Map();
  for (const f of files) {
    const info = ts.preProcessFile(readFileSync(f, 'utf8'), true, true);
    const deps = new Set();
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(f), fileName);
      if (known.has(target)) deps.add(target);
    }
    graph.set(f, [...deps]);
  }
  return graph;
}

/** every cycle as a list of files (strongly connected components of size > 1, and self-imports) */
export function findCycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

export function describeCycles(root, cycles) {
  return cycles.map((c) => `import cycle: ${c.map((f) => relative(root, f)).join(' <-> ')}`);
}

/**
 * Layering: modules under `from` (e.g. pipeline/fixture, pipeline/proxy) that import anything
 * under `forbidden` (the CLI layer, pipeline/cli). Returns "a -> b" lines.
 */
export function layerViolations(root, graph, from, forbidden) {
  const out = [];
  const under = (f, dir) => relative(resolve(root, dir), f).split(/[\\/]/)[0] !== '..';
  for (const [f, deps] of graph) {
    if (!from.some((d) => under(f, d))) continue;
    for (const d of deps) if (forbidden.some((x) => under(d, x))) out.push(`${relative(root, f)} -> ${relative(root, d)}`);
  }
  return out;
}
