/**
 * docs/comply-vs-reference.md is checked: its tables name real checks and targets, the
 * mcpgauge verdicts it states are the ones mcpgauge gives (the deviation list that
 * real-servers.test.ts checks live), every mcpgauge failure on a target is accounted for, and,
 * when the reference prober (@yawlabs/mcp-compliance) is installed, a run of it on
 * server-everything over stdio shows no disagreement the document does not list.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CATALOG } from '../../pipeline/comply/checks/index.ts';
import { comply } from '../../pipeline/comply/comply.ts';
import { REAL_DEVIATIONS } from './real-deviations.ts';

const DOC = fileURLToPath(new URL('../../docs/comply-vs-reference.md', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TARGETS = ['everything-stdio', 'filesystem-stdio', 'memory-stdio', 'sequential-thinking-stdio', 'everything-http'];
const COLUMNS = ['target', 'mcpgauge check', 'mcpgauge', 'reference check', 'reference', 'conformance suite', 'requirement (our summary)'];

interface Row {
  targets: string[];
  ours: string[];
  ourVerdict: string;
  theirs: string[];
  theirVerdict: string;
  table: 'disagreements' | 'agreements';
}

const ids = (cell: string) => [...cell.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]);

export function parseDoc(text: string): Row[] {
  const rows: Row[] = [];
  let table: Row['table'] | null = null;
  let header: string[] | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) [table, header] = [/^## Disagreements/.test(line) ? 'disagreements' : /^## Agreements/.test(line) ? 'agreements' : null, null];
    if (!table || !line.startsWith('|')) continue;
    const cells = line.slice(1, -1).split('|').map((c) => c.trim());
    if (!header) {
      header = cells;
      for (const c of COLUMNS) assert.ok(header.includes(c), `column "${c}" in the ${table} table`);
      continue;
    }
    if (cells.every((c) => /^-+$/.test(c))) continue;
    const col = (n: string) => cells[header!.indexOf(n)];
    rows.push({ targets: col('target').split(',').map((t) => t.trim()), ours: ids(col('mcpgauge check')), ourVerdict: col('mcpgauge'), theirs: ids(col('reference check')), theirVerdict: col('reference'), table });
  }
  return rows;
}

const rows = parseDoc(readFileSync(DOC, 'utf8'));
const known = new Set(CATALOG.map((c) => c.meta.id));
const failsOurs = (r: Row) => /^fail/.test(r.ourVerdict);

/** The reference prober's CLI, when installed as a devDependency or into .cache/peers/. */
function referenceBin(): string | null {
  for (const base of [ROOT, join(ROOT, '.cache/peers')]) {
    try {
      const req = createRequire(join(base, 'package.json'));
      const pkg = req.resolve('@yawlabs/mcp-compliance/package.json');
      const bin = (JSON.parse(readFileSync(pkg, 'utf8')) as { bin?: string | Record<string, string> }).bin;
      const rel = typeof bin === 'string' ? bin : bin?.['mcp-compliance'];
      if (rel && existsSync(join(dirname(pkg), rel))) return join(dirname(pkg), rel);
    } catch {
      /* not installed there */
    }
  }
  return null;
}

describe('docs/comply-vs-reference.md', { timeout: 180_000 }, () => {
  it('names real checks and the five targets, in both tables', () => {
    assert.ok(rows.filter((r) => r.table === 'disagreements').length >= 10, 'disagreement rows');
    for (const r of rows) {
      for (const t of r.targets) assert.ok(TARGETS.includes(t), `unknown target ${t}`);
      assert.ok(r.ours.length, `a row without an mcpgauge check: ${JSON.stringify(r)}`);
      for (const id of r.ours) assert.ok(known.has(id), `${id} is not an mcpgauge check`);
    }
    for (const t of TARGETS) assert.ok(rows.some((r) => r.targets.includes(t)), `${t} has no row`);
  });
  it('states the mcpgauge verdicts mcpgauge gives, and accounts for every mcpgauge failure on each target', () => {
    for (const t of TARGETS) {
      const failing = new Set(REAL_DEVIATIONS[t]);
      for (const r of rows.filter((x) => x.targets.includes(t) && failsOurs(x))) for (const id of r.ours) assert.ok(failing.has(id), `${t}: the doc says mcpgauge fails ${id}, the deviation list does not`);
      for (const id of failing) assert.ok(rows.some((r) => r.targets.includes(t) && r.ours.includes(id) && failsOurs(r)), `${t}: mcpgauge fails ${id}, the doc does not account for it`);
    }
  });
  const bin = referenceBin();
  it('the reference prober on server-everything over stdio: no disagreement the doc does not list', { skip: bin ? false : '@yawlabs/mcp-compliance is not installed (the npm registry answered 404 for it on 2026-12-01); install it with undici@7 as a devDependency or into .cache/peers/ to run this' }, async () => {
    const require = createRequire(import.meta.url);
    const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
    const { stdout } = await promisify(execFile)(process.execPath, [bin!, 'test', '--format', 'json', '--spec-version', '2025-11-25', '--', process.execPath, entry, 'stdio'], { maxBuffer: 64 * 1024 * 1024 }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    const theirs = (JSON.parse(stdout) as { tests: Array<{ id: string; passed: boolean; skipped?: boolean }> }).tests;
    const { report } = await comply({ kind: 'stdio', command: process.execPath, args: [entry, 'stdio'], env: { ...process.env } as Record<string, string> }, { spec: '2025-11-25', timeoutMs: 15_000, startupTimeoutMs: 60_000, selection: { only: [], skip: [] }, invasive: true, secrets: [] });
    const ours = new Map(report.runs[0].results.map((x) => [x.id, x.status]));
    const listed = rows.filter((r) => r.targets.includes('everything-stdio'));
    const unlisted: string[] = [];
    for (const t of theirs) {
      if (t.skipped || !ours.has(t.id)) continue; // compared only where both catalogs share the id
      const o = ours.get(t.id)!;
      if (o !== 'pass' && o !== 'fail') continue;
      if ((o === 'pass') === t.passed) continue;
      if (!listed.some((r) => r.ours.includes(t.id) || r.theirs.includes(t.id))) unlisted.push(`${t.id}: mcpgauge ${o}, reference ${t.passed ? 'pass' : 'fail'}`);
    }
    assert.deepEqual(unlisted, [], 'disagreements with the reference prober missing from docs/comply-vs-reference.md');
  });
});
