/**
 * The seed data the result fixtures and the live stage's embedded upstreams run on: a folder of
 * files for the filesystem server (datasets/seeds/results-files/) and a small knowledge graph for
 * the memory server (datasets/seeds/results-graph.json).
 */
import { chmodSync, cpSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { sha256Hex } from '../corpus/canonical.ts';
import { REPO_ROOT } from '../constants.ts';
import { readJson } from '../corpus/record.ts';
import { UserError, type JsonValue } from '../types.ts';
import { listFilesSorted } from '../util/fs.ts';

/** The filesystem seed folder (copied to a temp folder for every capture). */
export const SEED_FILES_DIR = resolve(REPO_ROOT, 'datasets', 'seeds', 'results-files');
/** The memory seed graph: {entities: [...], relations: [...]} in the memory server's argument shapes. */
export const SEED_GRAPH_FILE = resolve(REPO_ROOT, 'datasets', 'seeds', 'results-graph.json');
/** Fixed modification/access time of the seed copy (a clock reading nobody needs to strip). */
const SEED_TIME = new Date('2026-01-01T00:00:00Z');

export interface SeedGraph {
  entities: Array<{ name: string; entityType: string; observations: string[] }>;
  relations: Array<{ from: string; to: string; relationType: string }>;
}

export function loadSeedGraph(file = SEED_GRAPH_FILE): SeedGraph {
  const g = readJson(file) as Partial<SeedGraph>;
  if (!Array.isArray(g.entities) || !Array.isArray(g.relations))
    throw new UserError(`${file}: expected {entities: [...], relations: [...]}`);
  return { entities: g.entities, relations: g.relations };
}

/** Write the seed graph as a memory-server file (one JSON object per line, entities then relations). */
export function writeMemorySeed(file: string, graph: SeedGraph = loadSeedGraph()): void {
  const lines = [
    ...graph.entities.map((e) => JSON.stringify({ type: 'entity', name: e.name, entityType: e.entityType, observations: e.observations })),
    ...graph.relations.map((r) => JSON.stringify({ type: 'relation', from: r.from, to: r.to, relationType: r.relationType })),
  ];
  writeFileSync(file, lines.join('\n') + '\n');
}

/** sha256 over the seed folder: sorted relative paths and their bytes. */
export function seedFolderSha256(dir = SEED_FILES_DIR): string {
  const files = listFilesSorted(dir);
  return sha256Hex(files.map((f) => `${relative(dir, f)}\u0000${readFileSync(f, 'utf8')}`).join('\u0001'));
}

/** Copy the seed folder to `dest` with fixed modes (dirs 0755, files 0644) and times. */
export function copySeedFolder(dest: string): void {
  cpSync(SEED_FILES_DIR, dest, { recursive: true });
  const fix = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      chmodSync(p, 0o755);
      for (const n of readdirSync(p)) fix(join(p, n));
    } else chmodSync(p, 0o644);
    utimesSync(p, SEED_TIME, SEED_TIME);
  };
  fix(dest);
}

/** `<ALLOWED_DIR>` in call arguments: the folder the filesystem server was given (a seed copy). */
export const ALLOWED_DIR_PLACEHOLDER = '<ALLOWED_DIR>';

/** Replace every placeholder (e.g. `<ALLOWED_DIR>`) in every string of a JSON value. */
export function fillPlaceholders(v: JsonValue, values: Readonly<Record<string, string>>): JsonValue {
  if (typeof v === 'string') return Object.entries(values).reduce((s, [ph, real]) => s.split(ph).join(real), v);
  if (Array.isArray(v)) return v.map((x) => fillPlaceholders(x, values));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillPlaceholders(x, values)]));
  return v;
}
