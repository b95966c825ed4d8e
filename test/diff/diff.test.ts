/**
 * `mcpgauge diff` on reports produced by real runs of `mcpgauge bench`: two identical offline
 * runs pass; a deliberately worse live run (the proxy asked for one result per query instead
 * of ten) is flagged with exit 1; reports of different things are refused with exit 2.
 */
import { REPO_ROOT as ROOT } from '../../pipeline/constants.ts';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { DiffResult } from '../../pipeline/diff/compare.ts';

const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-diff-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'bin/mcpgauge.mjs'), ...args], { encoding: 'utf8', timeout: 240_000 });
}
// diff reads report.json only: no dashboard (its own tests draw it), ~0.7 s of CPU less per run
function bench(name: string, extra: string[]): string {
  const out = join(dir, name);
  const r = cli(['bench', '--out', out, '--bootstrap', '200', '--tokenizers', 'cl100k_base', '--no-dashboard', ...extra]);
  assert.equal(r.status, 0, r.stderr);
  return out;
}
const OFFLINE = ['--arms', 'baseline_json,compact_sig'];
const LIVE = ['--live', '--no-offline', '--runs', '1', '--warmup', '1', '--live-details', 'full', '--no-lap'];

test('diff: two identical offline runs pass (exit 0), every figure unchanged', () => {
  const a = bench('off-a', OFFLINE);
  const b = bench('off-b', OFFLINE);
  const r = cli(['diff', a, join(b, 'report.json'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  const d = JSON.parse(r.stdout) as DiffResult;
  assert.equal(d.verdict, 'pass');
  assert.ok(d.rows.length >= 12, `rows ${d.rows.length}`);
  assert.equal(d.summary.regression, 0);
  assert.equal(d.summary.unchanged, d.rows.length);
  assert.ok(d.rows.some((x) => x.kind === 'retrieval' && x.old_ci95));
  assert.ok(
    d.identity.some((l) => l.startsWith('golden golden-npm4-v2')),
    d.identity.join('\n'),
  );
});

test('diff: a worse live run is flagged (exit 1) with the retrieval drop outside the CI; markdown + JSON written', () => {
  const good = bench('live-good', LIVE);
  const worse = bench('live-worse', [...LIVE, '--limit', '1']);
  const out = join(dir, 'diff-out');
  const r = cli(['diff', good, worse, '--out', out]);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /^# mcpgauge diff: FAIL/);
  const d = JSON.parse(readFileSync(join(out, 'diff.json'), 'utf8')) as DiffResult;
  assert.equal(readFileSync(join(out, 'diff.md'), 'utf8'), r.stdout);
  const recall = d.rows.find((x) => x.key === 'live/retrieval/full/recall_at_5')!;
  assert.equal(recall.verdict, 'regression');
  assert.ok(recall.new! < recall.old_ci95![0], JSON.stringify(recall));
  // fewer results per response: response tokens drop (an improvement), break-even calls rise
  const p50 = d.rows.find((x) => x.key === 'live/responses/full/cl100k_base/p50')!;
  assert.equal(p50.verdict, 'improvement');
  // the same two reports the other way round: recall improves, and the response tokens regress
  const back = cli(['diff', worse, good, '--json']);
  assert.equal(back.status, 1);
  const db = JSON.parse(back.stdout) as DiffResult;
  assert.equal(db.rows.find((x) => x.key === 'live/retrieval/full/recall_at_5')!.verdict, 'improvement');
  assert.equal(db.rows.find((x) => x.key === 'live/responses/full/cl100k_base/p50')!.verdict, 'regression');
  // a generous token tolerance does not hide the retrieval regression
  const tol = join(dir, 'tol.json');
  writeFileSync(tol, JSON.stringify({ tokens_pct: 1000, break_even_pct: 1000, latency_pct: 1000 }));
  const loose = cli(['diff', good, worse, '--tolerances', tol, '--json']);
  assert.equal(loose.status, 1);
  const dl = JSON.parse(loose.stdout) as DiffResult;
  assert.ok(dl.rows.filter((x) => x.verdict === 'regression').every((x) => x.kind === 'retrieval'));
  // different things measured: offline vs live-only report -> refusal naming the difference
  const refused = cli(['diff', join(dir, 'off-a'), good]);
  assert.equal(refused.status, 2);
  assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  assert.match(refused.stderr, /diff refused: .*golden golden-npm4-v2/);
});

test('diff: bad input is one clear line, nothing written', () => {
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"report_version": 1');
  const r = cli(['diff', bad, bad, '--out', join(dir, 'never')]);
  assert.notEqual(r.status, 0);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /bad\.json: malformed JSON/);
  assert.equal(existsSync(join(dir, 'never')), false);
  const tol = join(dir, 'tol-bad.json');
  writeFileSync(tol, JSON.stringify({ token_pct: 3 }));
  const t = cli(['diff', bad, bad, '--tolerances', tol]);
  assert.match(t.stderr, /tol-bad\.json: unknown key "token_pct"/);
  const f = cli(['diff', bad, bad, '--latency-pct', 'fast']);
  assert.match(f.stderr, /--latency-pct must be a number, got "fast"/);
});
