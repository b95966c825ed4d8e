/**
 * A catalog of N tools built from real tool definitions: a deterministic sample of a corpus
 * (seeded permutation; a smaller N is always a prefix of a larger one, so growth curves compare
 * nested catalogs), cycled when N exceeds the corpus and renamed so every name stays unique.
 * Used by the fixture's `--catalog N --catalog-from FILE` and by the scale sweep.
 */
import type { ToolRecord } from '../types.ts';
import { toolRecordOf } from '../mcp/tool-record.ts';
import { seededRandom } from '../util/stats.ts';

/** MCP tool names: 1..128 of [A-Za-z0-9_.-] (spec SHOULD); we keep them shorter. */
const NAME_MAX = 64;

function safeName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '');
  return (s || 'tool').slice(0, NAME_MAX);
}

/** A seeded Fisher-Yates permutation of 0..n-1 (mulberry32, the project's PRNG). */
export function permutation(n: number, seed: number): number[] {
  const rnd = seededRandom(seed);
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [p[i], p[j]] = [p[j], p[i]];
  }
  return p;
}

export interface CatalogOptions {
  /** permutation seed (default 42) */
  seed?: number;
  /** server name of the catalog's tool ids (default "mcpfixture") */
  server?: string;
  /** names already taken (e.g. the fixture's built-in tools) */
  reserved?: Iterable<string>;
}

/**
 * N tools sampled from `source`: names made MCP-safe and unique (a clash, or the k-th reuse past
 * the corpus size, gets `_2`, `_3`, ...), descriptions and input schemas kept verbatim.
 */
export function catalogFrom(source: readonly ToolRecord[], n: number, opts: CatalogOptions = {}): ToolRecord[] {
  if (n > 0 && source.length === 0) throw new Error('catalogFrom: the source corpus has no tools');
  const server = opts.server ?? 'mcpfixture';
  const order = permutation(source.length, opts.seed ?? 42);
  const used = new Set<string>(opts.reserved ?? []);
  const out: ToolRecord[] = [];
  for (let i = 0; i < n; i++) {
    const t = source[order[i % source.length]];
    const base = safeName(t.tool);
    let name = base;
    for (let k = 2; used.has(name); k++) {
      const suffix = `_${k}`;
      name = `${base.slice(0, NAME_MAX - suffix.length)}${suffix}`;
    }
    used.add(name);
    out.push(toolRecordOf(server, { name, description: t.description, inputSchema: t.inputSchema ?? { type: 'object', properties: {} } }));
  }
  return out;
}
