/**
 * The clean fixture passes every applicable check on every transport and revision: stdio
 * (auto: dual-era, each revision on its own process) and stateless streamable HTTP (both
 * revisions), with resources and prompts on; and the tools-only fixture, where the
 * undeclared-capability check applies.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FEATURES, httpRuns, notPassing, stdioRuns } from './harness.ts';

describe('clean fixture: every applicable check passes', { concurrency: 2, timeout: 240_000 }, () => {
  it('stdio, auto era: graded on both revisions (dual-era), all pass', async () => {
    const runs = await stdioRuns('auto', FEATURES);
    assert.deepEqual(runs.map((r) => r.revision).sort(), ['2025-11-25', '2026-07-28']);
    for (const r of runs) {
      assert.deepEqual(notPassing(r), [], `${r.revision}`);
      assert.equal(r.conformance.grade, 'A');
      assert.ok(r.results.filter((x) => x.status === 'pass').length > 40, `${r.revision}: enough checks evaluated`);
    }
  });
  it('streamable HTTP (stateless), both revisions, all pass', async () => {
    const runs = await httpRuns(['2026-07-28', '2025-11-25'], FEATURES);
    for (const r of runs) {
      assert.deepEqual(notPassing(r), [], `${r.revision}`);
      assert.equal(r.conformance.grade, 'A');
    }
  });
  it('streamable HTTP with sessions (the SDK session transport), 2025-11-25: the session checks pass', async () => {
    const [r] = await httpRuns(['2025-11-25'], FEATURES, []);
    for (const id of ['transport-session-required', 'transport-session-unknown', 'transport-session-delete', 'transport-session-id-charset']) {
      const x = r.results.find((y) => y.id === id);
      assert.equal(x?.status, 'pass', `${id}: ${x?.code} ${x?.detail}`);
    }
  });
  it('tools-only fixture: undeclared resources/prompts are refused (capability-gated check applies)', async () => {
    const [r] = await stdioRuns('2026-07-28', {});
    assert.deepEqual(notPassing(r), []);
    assert.equal(r.results.find((x) => x.id === 'lifecycle-capability-gated')?.status, 'pass');
    assert.equal(r.results.find((x) => x.id === 'resources-list')?.reason, 'capability_undeclared');
  });
});
