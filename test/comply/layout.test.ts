/**
 * The layout of pipeline/comply/ (its README): folders by job, a root of at most 12 files,
 * imports that follow the flow (wire/ and gather/ never reach the judging or output side), and
 * probes in one file per check category, each probe in the file of a category whose checks read it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CATALOG } from '../../pipeline/comply/checks/index.ts';
import { PROBES } from '../../pipeline/comply/gather/probes/index.ts';
import type { Probe } from '../../pipeline/comply/gather/probes/kit.ts';
import { CATEGORIES } from '../../pipeline/comply/types.ts';

const COMPLY = resolve(import.meta.dirname, '..', '..', 'pipeline', 'comply');
const PROBES_DIR = join(COMPLY, 'gather', 'probes');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** the comply-relative paths a file imports (static, dynamic, type-only, re-exports) */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((s) =>
    relative(COMPLY, resolve(dirname(file), s))
      .split('\\')
      .join('/'),
  );
}

test('the root of pipeline/comply/ holds at most 12 files', () => {
  const files = readdirSync(COMPLY).filter((n) => statSync(join(COMPLY, n)).isFile());
  assert.ok(files.length <= 12, `${files.length} files: ${files.join(', ')}`);
});

test('imports follow the flow: wire/ and gather/ never import the judging or output side; judge/ never reads bytes or output', () => {
  const rules: Array<{ folder: string; never: RegExp }> = [
    { folder: 'wire', never: /^(gather|judge|checks|output|render)\/|^(comply|cli-run|latency-bench|section|section-input)\.ts$/ },
    { folder: 'gather', never: /^(judge|checks|output|render)\/|^(comply|cli-run|latency-bench|section|section-input)\.ts$/ },
    { folder: 'judge', never: /^(wire|output|render)\/|^(comply|cli-run|latency-bench|section|section-input)\.ts$/ },
    { folder: 'checks', never: /^(output|render)\/|^(comply|cli-run|latency-bench|section|section-input)\.ts$/ },
  ];
  const bad: string[] = [];
  for (const { folder, never } of rules) {
    for (const f of filesUnder(join(COMPLY, folder))) {
      for (const target of importsOf(f)) if (never.test(target)) bad.push(`${relative(COMPLY, f)} -> ${target}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('probes live in one file per check category, each probe with a category whose checks read it', async () => {
  const shared = ['index.ts', 'kit.ts', 'security-kit.ts'];
  const files = readdirSync(PROBES_DIR)
    .filter((n) => n.endsWith('.ts'))
    .sort();
  assert.deepEqual(
    files,
    [...CATEGORIES.map((c) => `${c}.ts`), ...shared].sort(),
    'gather/probes/: <category>.ts for every category, plus the kit and the index',
  );
  const placed: string[] = [];
  const misplaced: string[] = [];
  for (const cat of CATEGORIES) {
    const mod = (await import(pathToFileURL(join(PROBES_DIR, `${cat}.ts`)).href)) as Record<string, unknown>;
    const lists = Object.values(mod).filter(
      (v): v is Probe[] => Array.isArray(v) && v.length > 0 && typeof (v[0] as Probe).build === 'function',
    );
    assert.equal(lists.length, 1, `${cat}.ts exports one probe list`);
    for (const p of lists[0]) {
      placed.push(p.id);
      const readers = CATALOG.filter((c) => c.meta.probes.includes(p.id)).map((c) => c.meta.category);
      if (!readers.includes(cat)) misplaced.push(`${p.id} in ${cat}.ts, read by ${[...new Set(readers)].join(', ') || 'no check'}`);
    }
  }
  assert.deepEqual(misplaced, []);
  assert.deepEqual(placed.sort(), PROBES.map((p) => p.id).sort(), 'PROBES is exactly the category lists');
});
