#!/usr/bin/env node
// Fails (exit 1) when the repository's modules import each other in a cycle (scripts/lib/cycles.mjs),
// a library module imports the CLI, or a function of pipeline/ is over 100 lines
// (scripts/lib/long-functions.mjs; scripts/test.mjs runs this file before the tests).
import { resolve } from 'node:path';
import { describeCycles, findCycles, importGraph, layerViolations } from './lib/cycles.mjs';
import { MAX_FUNCTION_LINES, longFunctions } from './lib/long-functions.mjs';

const root = resolve(import.meta.dirname, '..');
const graph = importGraph(root, ['pipeline', 'arms', 'scripts', 'bin']);
const cycles = findCycles(graph);
// server and library modules never call into the CLI layer
const layering = layerViolations(root, graph, ['pipeline'], ['pipeline/cli', 'pipeline/cli.ts']).filter(
  (l) => !l.startsWith('pipeline/cli'),
);
const long = longFunctions(root, ['pipeline']);
if (cycles.length || layering.length || long.length) {
  for (const line of describeCycles(root, cycles)) console.error(line);
  for (const line of layering) console.error(`CLI layer imported from a library/server module: ${line}`);
  for (const x of long)
    console.error(`function over ${MAX_FUNCTION_LINES} lines: ${x.file}:${x.line} ${x.name} (${x.lines} lines; split it along its steps)`);
  process.exit(1);
}
console.log(
  `import cycles: none; no library/server module imports the CLI (${graph.size} modules); no function of pipeline/ over ${MAX_FUNCTION_LINES} lines`,
);
