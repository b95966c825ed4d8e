import { test, after } from 'node:test';
import { REPO_ROOT as ROOT } from '../../pipeline/constants.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { runOffline } from '../../pipeline/bench/offline.ts';
import { assembleReport } from '../../pipeline/bench/report.ts';
import { validateReport } from '../../pipeline/report/validate.ts';
import { getArm } from '../../arms/registry.ts';
import { getTokenizer } from '../../pipeline/tokens/tokenizer.ts';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { DEFAULT_CORPUS, DEFAULT_GOLDEN, DEFAULT_DISCOVERY_MENU } from '../../pipeline/constants.ts';

const made: string[] = [];
/** A temp folder removed after the file's tests. */
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'mcpgauge-bench-'));
  made.push(d);
  return d;
}
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

test('offline stage on the frozen corpus: numbers agree with direct computation', async () => {
  const res = await runOffline({
    corpora: [{ path: DEFAULT_CORPUS, golden: DEFAULT_GOLDEN }],
    discoveryMenu: DEFAULT_DISCOVERY_MENU,
    arms: ['baseline_json', 'compact_sig', 'compact_json'],
    tokenizers: 'all',
    bootstrap: { iterations: 200, seed: 1 },
    responseTopK: 5,
  });
  const corpus = await loadCorpus(DEFAULT_CORPUS);
  const baseline = getArm('baseline_json');
  const cl = getTokenizer('cl100k_base');
  const direct = cl.count(baseline.renderListing(corpus.tools));
  const row = res.arms.find((a) => a.arm === 'baseline_json')!;
  assert.equal(row.by_tokenizer.cl100k_base.total_tokens.value, direct);
  assert.equal(row.by_tokenizer.cl100k_base.per_tool_tokens.length, corpus.tools.length);
  const sig = res.arms.find((a) => a.arm === 'compact_sig')!;
  const sigTotal = sig.by_tokenizer.cl100k_base.total_tokens.value;
  assert.ok(Math.abs(sig.by_tokenizer.cl100k_base.savings_vs_baseline_pct.value - (1 - sigTotal / direct) * 100) < 1e-9);
  // retrieval: baseline and the index-altering compact_sig are scored; compact_json is not re-indexed unless it alters the index
  const scored = res.retrieval
    .filter((r) => 'metrics' in r)
    .map((r) => r.arm)
    .sort();
  assert.ok(scored.includes('baseline_json') && scored.includes('compact_sig'), scored.join(','));
  const base = res.retrieval.find((r) => r.arm === 'baseline_json')!;
  const goldenCount = (JSON.parse(readFileSync(DEFAULT_GOLDEN, 'utf8')) as { queries: unknown[] }).queries.length;
  assert.ok('per_query' in base && base.per_query!.length === goldenCount && goldenCount >= 120);
  // break-even rows follow the formula from their echoed inputs
  assert.ok(res.economics.break_even.length >= 4);
  for (const be of res.economics.break_even) {
    if (be.no_break_even) assert.equal(be.break_even_calls, null);
    else assert.ok(Math.abs(be.break_even_calls! - (be.full_menu_tokens - be.discovery_menu_tokens) / be.mean_response_tokens) < 1e-9);
  }
  // the discovery menu tokens are the arm's rendering of the frozen proxy menu
  const menu = await loadCorpus(DEFAULT_DISCOVERY_MENU);
  const beBase = res.economics.break_even.find((b) => b.arm === 'baseline_json' && b.tokenizer === 'cl100k_base')!;
  assert.equal(beBase.discovery_menu_tokens, cl.count(baseline.renderListing(menu.tools)));
  assert.equal(res.economics.session_estimates.filter((s) => s.arm === 'baseline_json' && s.tokenizer === 'cl100k_base').length, 4);
  const report = assembleReport({ offline: res, tokenizers: ['cl100k_base', 'o200k_base'], options: {}, argv: ['bench'] });
  validateReport(report);
});

function cli(args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'bin/mcpgauge.mjs'), ...args], { encoding: 'utf8', timeout: 120_000 });
}

test('bench: bad input is a one-line error, non-zero exit, nothing written', () => {
  const dir = tmp();
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"tools": [');
  const cases: [string[], RegExp][] = [
    [['--corpus', bad], /bad\.json.*malformed JSON/],
    [['--arms', 'baseline_json,nope'], /nope/],
    [['--arms', 'compact_sig'], /baseline_json/],
    [['--bootstrap', 'abc'], /--bootstrap must be an integer/],
    [['--corpus', join(dir, 'missing.json')], /missing\.json/],
    [['--live', '--proxy-url', 'http://127.0.0.1:1/mcp', '--proxy-cmd', 'x'], /cannot be combined/],
  ];
  for (const [args, re] of cases) {
    const out = join(dir, 'out');
    const r = cli(['bench', '--out', out, '--bootstrap', '10', ...args]);
    assert.notEqual(r.status, 0, `expected failure for ${args.join(' ')}`);
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('mcpgauge:'));
    assert.equal(lines.length, 1, `one error line for ${args.join(' ')}: ${r.stderr}`);
    assert.match(lines[0], re);
    assert.equal(existsSync(out) ? readdirSync(out).length : 0, 0, 'nothing written');
  }
});

test('bench CLI writes a valid report, tables and dashboard', () => {
  const dir = tmp();
  const r = cli(['bench', '--out', dir, '--bootstrap', '50', '--arms', 'baseline_json,compact_sig', '--tokenizers', 'cl100k_base']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /report: .*report\.json/);
  // the summary: the baseline is labelled, never a "(-0.0%)" saving against itself
  assert.doesNotMatch(r.stderr, /\(-0\.0%\)/);
  assert.match(r.stderr, /baseline_json +cl100k_base +\d+ \(baseline\)/);
  assert.match(r.stderr, /compact_sig +cl100k_base +\d+ \([-+]\d+\.\d%\)/);
  const report = validateReport(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')));
  assert.equal(report.corpora[0].id, 'corpus-npm4-v1');
  assert.deepEqual(Object.keys(report.arms[0].by_tokenizer), ['cl100k_base']);
  assert.ok(existsSync(join(dir, 'dashboard.html')));
  assert.ok(readdirSync(join(dir, 'tables')).some((f) => f.endsWith('.parquet')));
});

test('bench --live --no-offline: a live-only report still describes its corpus and validates', () => {
  const dir = tmp();
  const r = cli([
    'bench',
    '--out',
    dir,
    '--live',
    '--no-offline',
    '--live-queries',
    '3',
    '--runs',
    '1',
    '--warmup',
    '0',
    '--embedded-servers',
    'memory',
    '--bootstrap',
    '20',
    '--connect-timeout',
    '120000',
  ]);
  assert.equal(r.status, 0, r.stderr);
  const report = validateReport(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')));
  assert.equal(report.arms.length, 0);
  assert.deepEqual(
    report.corpora.map((c) => c.id),
    ['corpus-npm4-v1'],
  );
  assert.equal(report.live?.corpus_id, 'corpus-npm4-v1');
  const menu = report.live!.menus.find((m) => m.tokenizer === 'cl100k_base')!;
  assert.equal(menu.upstream_tool_count, 9); // server-memory's nine tools
  assert.ok(menu.proxy_menu_tokens.value > 0 && menu.proxy_menu_tokens.value < menu.full_menu_tokens.value);
  assert.equal(report.live!.responses.filter((x) => x.ok).length, 3 * 2 * 2); // 3 queries x 2 details x 2 tokenizers
});
