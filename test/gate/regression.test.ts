/** The regression step: old/new values and the tolerance in the reason; gate and bench baselines. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { step } from '../../pipeline/gate/steps/regression.ts';
import { loadBaseline } from '../../pipeline/gate/baseline.ts';
import { loadGateConfig } from '../../pipeline/gate/config.ts';
import { CELLS } from '../../pipeline/gate/cells.ts';
import type { BaselineMetrics, CellContext, CellMetrics } from '../../pipeline/gate/types.ts';
import { SAMPLE_REPORT_PATH } from '../report/sample.ts';
import { REPO } from './helpers.ts';

const cfg = loadGateConfig(join(REPO, 'gate.config.json'));
const ctxWith = (baseline: BaselineMetrics | null, metrics: CellMetrics) =>
  ({ cell: CELLS[0], cfg, opts: { baseline }, metrics }) as unknown as CellContext;
const base = (m: CellMetrics): BaselineMetrics => ({ source: 'old.json', kind: 'gate', byCell: { [CELLS[0].id]: m } });
const OLD: CellMetrics = { tokenizer: 'cl100k_base', menu_tokens: 361, discovery_median_tokens: 415, recall_at_5: 1, latency_p95_ms: 30 };

test('no baseline: skipped (optional step); same numbers: pass', async () => {
  assert.equal((await step.run(ctxWith(null, OLD))).status, 'skipped');
  assert.equal(step.meta.optional, true);
  const r = await step.run(ctxWith(base(OLD), { ...OLD }));
  assert.equal(r.status, 'pass', r.reason);
});

test('tokens, recall@5 and latency beyond tolerance fail with old -> new and the tolerance', async () => {
  const r = await step.run(ctxWith(base(OLD), { ...OLD, menu_tokens: 500, recall_at_5: 0.6, latency_p95_ms: 90 }));
  assert.equal(r.status, 'fail');
  assert.match(r.reason, new RegExp(`menu 361 -> 500 tokens \\(\\+38\\.5% > tolerance ${cfg.tolerances.tokens_pct}%\\)`));
  assert.match(r.reason, /recall@5 1 -> 0\.6 \(drop 0\.400 > tolerance/);
  assert.match(r.reason, /latency p95 30 -> 90 ms \(\+200\.0% > tolerance/);
  const within = await step.run(ctxWith(base(OLD), { ...OLD, menu_tokens: 361 + Math.floor((361 * cfg.tolerances.tokens_pct) / 100) }));
  assert.equal(within.status, 'pass', within.reason);
});

test('a bench report baseline offers its live numbers; a file of neither kind is a harness error', () => {
  const b = loadBaseline(SAMPLE_REPORT_PATH, 'cl100k_base');
  assert.equal(b.kind, 'bench');
  assert.equal(typeof b.all?.menu_tokens, 'number');
  assert.throws(
    () => loadBaseline(join(REPO, 'package.json'), 'cl100k_base'),
    (e: Error & { exitCode?: number }) => e.exitCode === 2 && /neither a gate report .* nor a bench report/.test(e.message),
  );
});
