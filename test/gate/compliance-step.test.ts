/**
 * The gate's compliance step grades a real server with the real prober and compares the grade
 * with the config's minimum: a clean fixture passes at A, the same fixture with several MUST
 * behaviours broken (FIXTURE_BREAK knobs) falls below B and fails with the failing checks named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { step, complyTarget } from '../../pipeline/gate/steps/compliance.ts';
import { loadGateConfig, type GateConfig } from '../../pipeline/gate/config.ts';
import type { CellContext } from '../../pipeline/gate/types.ts';
import type { McpTarget } from '../../pipeline/mcp/client.ts';
import { REPO } from './helpers.ts';

const FIXTURE = join(REPO, 'bin', 'mcpfixture.mjs');
// MUST knobs whose checks fail on their own (not blocked_by one root cause), so the grade stays well under B as the catalog grows (65, C, on the 96-check catalog)
const BROKEN =
  'tools-list-not-array,call-no-content,unknown-method-ok,parse-error-silent,invalid-request-silent,no-server-info,ping-error,string-id-number,init-bad-version,answer-notifications,stdout-banner';

function ctxFor(target: McpTarget, compliance: GateConfig['compliance'], era: '2025-11-25' | '2026-07-28' = '2025-11-25'): CellContext {
  const base = loadGateConfig(join(REPO, 'gate.config.json'));
  // step_ms is the prober's per-request timeout: the broken fixture leaves some requests unanswered
  // (parse-error-silent, invalid-request-silent), and each silent stage costs one of them
  const cfg: GateConfig = { ...base, compliance, timeouts: { ...base.timeouts, ready_ms: 60_000, step_ms: 6_000 } };
  // the step reads only the config and how to reach the proxy
  return {
    cfg,
    proxy: { target },
    cell: { id: `stdio/${era}`, transport: 'stdio', era, title: 't' },
  } as Partial<CellContext> as CellContext;
}

const fixture = (breaks?: string): McpTarget => ({
  kind: 'stdio',
  command: process.execPath,
  args: [FIXTURE, '--transport', 'stdio'],
  env: breaks ? { FIXTURE_BREAK: breaks } : {},
});

test('compliance step: a clean server passes at min_grade A, a broken one fails below B naming its failing checks', async () => {
  const spec: NonNullable<GateConfig['compliance']> = { min_grade: 'A', spec_version: '2025-11-25', skip: [] };
  const clean = await step.run(ctxFor(fixture(), { ...spec }));
  assert.equal(clean.status, 'pass', clean.reason);
  assert.match(clean.reason, /^compliance >= A: 2025-11-25 over stdio: A \(score \d+; no MUST failed, no cap\)$/);

  const broken = await step.run(ctxFor(fixture(BROKEN), { ...spec, min_grade: 'B' }));
  assert.equal(broken.status, 'fail', broken.reason);
  assert.match(broken.reason, /^compliance below B: 2025-11-25 over stdio: [CDF] \(score \d+; /);
  assert.match(broken.reason, /lifecycle-ping|lifecycle-server-info|stdio-stdout-clean/, 'the failing MUSTs are named');
  const runs = (
    broken.evidence as { runs: Array<{ failing: string[]; failing_must: string[]; cap: string | null; uncapped: string | null }> }
  ).runs;
  assert.ok(runs[0]!.failing.length >= 3, 'the failing checks are in the evidence');
  // letter, score, cap and the failing MUSTs together, per revision (issue 30)
  assert.equal(runs[0]!.cap, 'C');
  assert.ok(runs[0]!.failing_must.length >= 2, 'the capping MUSTs are recorded');
  const must = runs[0]!.failing_must.slice(0, 6).join(', ');
  assert.ok(
    broken.reason.includes(
      `2025-11-25 over stdio: ${(broken.evidence as { runs: Array<{ grade: string; score: number }> }).runs[0]!.grade} (score ${(broken.evidence as { runs: Array<{ score: number }> }).runs[0]!.score}; ${runs[0]!.failing_must.length} failing MUSTs: ${must}`,
    ),
    broken.reason,
  );
  assert.match(broken.reason, /; cap(ped at C from [A-F]| C)\)$/);
});

test('compliance step, spec_version auto: a cell judges the revision of its own era; the other is evidence only', async () => {
  const auto: NonNullable<GateConfig['compliance']> = { min_grade: 'B', spec_version: 'auto', skip: [] };
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    const r = await step.run(ctxFor(fixture(), { ...auto }, era));
    assert.equal(r.status, 'pass', r.reason);
    const ev = r.evidence as { runs: Array<{ revision: string }>; other_runs?: Array<{ revision: string }> };
    assert.deepEqual(
      ev.runs.map((x) => x.revision),
      [era],
      r.reason,
    );
    assert.ok(!r.reason.includes(era === '2025-11-25' ? '2026-07-28' : '2025-11-25'), `no other revision in the reason: ${r.reason}`);
    for (const o of ev.other_runs ?? []) assert.notEqual(o.revision, era);
  }
});

test('compliance step: skipped without a config block, not applicable over legacy SSE', async () => {
  const skipped = await step.run(ctxFor(fixture(), undefined));
  assert.equal(skipped.status, 'skipped');
  const sse = await step.run(ctxFor({ kind: 'sse', url: 'http://127.0.0.1:9/sse' }, { min_grade: 'B', spec_version: 'auto', skip: [] }));
  assert.equal(sse.status, 'not_applicable');
  assert.equal(complyTarget({ kind: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-API-Key': 'k' } })?.kind, 'http');
});
