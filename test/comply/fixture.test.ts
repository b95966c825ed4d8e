/**
 * The clean fixture passes every applicable check on every transport and revision: stdio
 * (auto: dual-era, each revision on its own process) and stateless streamable HTTP (both
 * revisions) and stateful streamable HTTP (auto: both revisions on the session endpoint), with
 * resources and prompts on; and the tools-only fixture, where the
 * undeclared-capability check applies.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AUTH_HEADER, AUTH_MODE, FEATURES, httpRuns, notPassing, stdioRuns } from './harness.ts';

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
      // no auth, no --auth: the auth checks do not apply (authorization is optional), never failed
      const auth = r.results.filter((x) => /^security-(auth|www|token|oauth|prm|challenge|credential|session-not)/.test(x.id));
      assert.ok(auth.length >= 8, `${r.revision}: auth checks present`);
      for (const x of auth) assert.equal(x.status, 'not_applicable', `${r.revision} ${x.id}: ${x.detail}`);
      assert.equal(
        r.results.find((x) => x.id === 'security-rate-limiting')?.status,
        'not_applicable',
        'loopback without auth: no rate limit expected',
      );
    }
  });
  it('streamable HTTP in auth mode (bearer token, PRM, rate limit) graded with --auth: all pass, every security check evaluated', async () => {
    const runs = await httpRuns(['2026-07-28', '2025-11-25'], { ...FEATURES, ...AUTH_MODE }, ['--stateless'], AUTH_HEADER);
    for (const r of runs) {
      assert.deepEqual(notPassing(r), [], `${r.revision}`);
      assert.equal(r.conformance.grade, 'A');
      assert.equal(r.security.grade, 'A');
      // only the session checks (stateless fixture: no session ids) and TLS (a plain http loopback
      // target; the https fixture is graded in tls.test.ts) are not applicable
      const na = r.results.filter((x) => x.meta.category === 'security' && x.status !== 'pass').map((x) => x.id);
      assert.deepEqual(
        na,
        [...(r.revision === '2025-11-25' ? ['security-session-entropy', 'security-session-not-auth'] : []), 'security-tls-required'],
        r.revision,
      );
    }
  });
  // one stateful fixture for both: the auto era's 2025-11-25 run is the session-transport run
  it('streamable HTTP with sessions (stateful), auto era, auth mode: both revisions on the one endpoint, all pass (2026-07-28 included: an unsupported version gets -32022, not the session error), and the session checks pass on 2025-11-25', async () => {
    const runs = await httpRuns(['auto'], { ...FEATURES, ...AUTH_MODE }, [], AUTH_HEADER);
    assert.deepEqual(runs.map((r) => r.revision).sort(), ['2025-11-25', '2026-07-28'], 'dual-era on the stateful path');
    for (const r of runs) {
      assert.deepEqual(notPassing(r), [], `${r.revision}`);
      assert.equal(r.conformance.grade, 'A');
    }
    const m = runs.find((r) => r.revision === '2026-07-28')!;
    assert.equal(m.results.find((x) => x.id === 'lifecycle-version-unsupported')?.status, 'pass');
    const legacy = runs.find((r) => r.revision === '2025-11-25')!;
    for (const id of [
      'transport-session-required',
      'transport-session-unknown',
      'transport-session-delete',
      'transport-session-id-charset',
      'security-session-entropy',
      'security-session-not-auth',
    ]) {
      const x = legacy.results.find((y) => y.id === id);
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
