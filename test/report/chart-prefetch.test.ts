/**
 * The chart worker gets the charts of the offline figures as soon as the offline stage is done
 * (bench/run.ts, issue 31), so it draws them while the later stages run; writeReport then sends
 * the final report's charts, and a chart whose rows did not change is not drawn again. Seen
 * through the built bin's trace of the charts sent to the worker (MCPGAUGE_TRACE_CHARTS).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCPGAUGE_BIN, tempDir } from '../proxy/helpers.ts';

const t = tempDir('chart-prefetch');
after(() => t.cleanup());

const OFFLINE_CHARTS = ['tokens_per_arm', 'per_tool_distribution', 'savings_vs_recall', 'recall_curves', 'retriever_recall', 'break_even'];

function bench(args: string[], trace: string): Promise<{ code: number; stderr: string }> {
  return new Promise((res) =>
    execFile(
      process.execPath,
      [
        MCPGAUGE_BIN,
        'bench',
        '--no-live',
        '--arms',
        'baseline_json,compact_sig',
        '--tokenizers',
        'cl100k_base',
        '--bootstrap',
        '10',
        ...args,
      ],
      { timeout: 120_000, maxBuffer: 32 << 20, env: { ...process.env, MCPGAUGE_TRACE_CHARTS: trace } },
      (e, _stdout, stderr) => res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stderr }),
    ),
  );
}
const sent = (trace: string) => (existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean) : []);

test('each chart of a bench run is sent to the chart worker once: the offline charts early, the result chart with the report', async () => {
  const trace = join(t.dir, 'ok.trace');
  const out = join(t.dir, 'ok');
  const r = await bench(['--out', out], trace);
  assert.equal(r.code, 0, r.stderr);
  const charts = sent(trace);
  assert.deepEqual(charts, [...OFFLINE_CHARTS, 'result_tokens'], 'every chart sent once, in this order');
  const page = readFileSync(join(out, 'dashboard.html'), 'utf8');
  for (const c of charts)
    assert.match(page, new RegExp(`data-chart="${c}"[^>]*>(?:<div class="chart-slot"[^>]*></div>)?<template><svg `), c);
});

test('the offline charts are sent before the later stages run: a run whose result fixtures are broken has sent them', async () => {
  const trace = join(t.dir, 'broken.trace');
  const fixtures = t.write('broken-results.json', '{"not": "result fixtures"');
  const r = await bench(['--result-fixtures', fixtures, '--out', join(t.dir, 'broken')], trace);
  assert.equal(r.code, 2, r.stderr);
  assert.deepEqual(sent(trace), OFFLINE_CHARTS);
  assert.ok(!existsSync(join(t.dir, 'broken', 'report.json')), 'nothing written');
});

test('--no-dashboard sends no chart at all', async () => {
  const trace = join(t.dir, 'nodash.trace');
  const r = await bench(['--no-dashboard', '--out', join(t.dir, 'nodash')], trace);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(sent(trace), []);
});
