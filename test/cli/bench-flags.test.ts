/**
 * Small bench flags: `bench --no-live` runs directly (not only through make),
 * `--allow-version-mismatch` accepts a golden set made for another version of the same tool set
 * (refused without it, with a line naming the flag), and `--no-dashboard` writes report.json and
 * tables/ only (no chart compiled; a dashboard an earlier run left is removed; `mcpgauge report`
 * draws it from them later).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCPGAUGE_BIN, tempDir } from '../proxy/helpers.ts';
import { DEFAULT_CORPUS, DEFAULT_GOLDEN } from '../../pipeline/constants.ts';
import { loadedModules } from '../build/helpers.ts';

const t = tempDir('bench-flags');
after(() => t.cleanup());

const BASE = [
  'bench',
  '--arms',
  'baseline_json',
  '--tokenizers',
  'cl100k_base',
  '--bootstrap',
  '10',
  '--retriever',
  'bm25',
  '--result-fixtures',
  'none',
];
function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) =>
    execFile(process.execPath, [MCPGAUGE_BIN, ...args], { timeout: 120_000, maxBuffer: 32 << 20 }, (e, stdout, stderr) =>
      res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}
const bench = (args: string[]) => run([...BASE, ...args]);

test('bench --no-live --allow-version-mismatch: a golden set of another corpus version, refused without the flag', async () => {
  const corpus = JSON.parse(readFileSync(DEFAULT_CORPUS, 'utf8'));
  const v9 = t.write('corpus-npm4-v9.tools.json', { ...corpus, version: 'corpus-npm4-v9' });
  const refused = await bench(['--no-live', '--corpus', v9, '--golden', DEFAULT_GOLDEN, '--out', join(t.dir, 'a')]);
  assert.notEqual(refused.code, 0);
  assert.match(
    refused.stderr,
    /corpus_version mismatch: golden is for corpus-npm4-v1, corpus is corpus-npm4-v9 \(--allow-version-mismatch/,
  );
  const ok = await bench(['--no-live', '--corpus', v9, '--golden', DEFAULT_GOLDEN, '--allow-version-mismatch', '--out', join(t.dir, 'b')]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stderr, /recall@5 \d\.\d{3} MRR/);
  assert.doesNotMatch(ok.stderr, /live stage/, '--no-live: no live stage');
});

test('bench --no-dashboard: report.json and tables/ only, no chart compiled; the dashboard an earlier run left is removed; `mcpgauge report` draws it later', async () => {
  const out = join(t.dir, 'nodash');
  const first = await bench(['--out', out]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /\ndashboard: .*dashboard\.html\n$/);
  assert.ok(existsSync(join(out, 'dashboard.html')));
  const before = readFileSync(join(out, 'report.json'), 'utf8');

  // another seed: the second report differs from the first whatever their timestamps
  const r = await loadedModules([MCPGAUGE_BIN, ...BASE, '--seed', '7', '--no-dashboard', '--out', out]);
  assert.equal(r.code, 0, r.stderr.slice(-600));
  assert.equal(r.stdout, `report: ${join(out, 'report.json')}\n`, 'no dashboard line');
  assert.ok(!existsSync(join(out, 'dashboard.html')), "the earlier run's dashboard is gone (it showed another run)");
  for (const f of ['per_query.parquet', 'per_query.arrow', 'arms.parquet']) assert.ok(existsSync(join(out, 'tables', f)), f);
  const after = readFileSync(join(out, 'report.json'), 'utf8');
  assert.notEqual(after, before, 'report.json is the new run');
  assert.equal(JSON.parse(after).meta.options.bootstrap.seed, 7, "report.json is the --no-dashboard run's");
  assert.ok(
    r.urls.some((u) => /\/dist\/bench-bundle\/bench\.cjs#cache=/.test(u)),
    "bench's bundle ran",
  );
  assert.deepEqual(
    r.urls.filter((u) => /\/vega(-lite)?\//.test(u)),
    [],
    'no vega, no vega-lite',
  );

  const drawn = await run(['report', '--bench', join(out, 'report.json'), '--out', join(out, 'dashboard.html')]);
  assert.equal(drawn.code, 0, drawn.stderr);
  const page = readFileSync(join(out, 'dashboard.html'), 'utf8');
  assert.match(
    page,
    /<figure class="chart" data-chart="tokens_per_arm"[^>]*><div class="chart-slot"><\/div><script [^>]*class="chart-data">/,
    'the charts come from report.json and tables/',
  );
});

test('bench --no-dashboard --comply: refused in one line (the comply report renders into the dashboard), nothing written', async () => {
  const out = join(t.dir, 'nodash-comply');
  const r = await bench(['--no-dashboard', '--comply', join(t.dir, 'none.json'), '--out', out]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /--comply renders into the dashboard; it cannot be combined with --no-dashboard/);
  assert.ok(!existsSync(out), 'nothing written');
});
