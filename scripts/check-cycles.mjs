#!/usr/bin/env node
// Fails (exit 1) when the repository's modules import each other in a cycle (scripts/lib/cycles.mjs).
import { resolve } from 'node:path';
import { describeCycles, findCycles, importGraph, layerViolations } from './lib/cycles.mjs';

const root = resolve(import.meta.dirname, '..');
const graph = importGraph(root, ['pipeline', 'arms', 'scripts', 'bin']);
const cycles = findCycles(graph);
// server and library modules never call into the CLI layer
const layering = layerViolations(root, graph, ['pipeline'], ['pipeline/cli', 'pipeline/cli.ts']).filter((l) => !l.startsWith('pipeline/cli'));
if (cycles.length || layering.length) {
  for (const line of describeCycles(root, cycles)) console.error(line);
  for (const line of layering) console.error(`CLI layer imported from a library/server module: ${line}`);
  process.exit(1);
}
console.log(`import cycles: none; no library/server module imports the CLI (${graph.size} modules)`);
