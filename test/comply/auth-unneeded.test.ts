/**
 * An --auth the server does not need: a fixture without auth mode, probed with a bearer token.
 * It serves the request without credentials and with an invalid token and publishes no
 * protected-resource metadata, so the auth checks are not applicable, never MUST failures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FEATURES, fixtureEnv, httpRuns } from './harness.ts';

test('an --auth the server ignores is not a MUST failure of the server', async () => {
  const [run] = await httpRuns(['2026-07-28'], fixtureEnv(FEATURES), ['--stateless'], { Authorization: 'Bearer not-needed-7d1e' });
  const r = (id: string) => run.results.find((x) => x.id === id)!;
  for (const id of ['security-auth-required', 'security-auth-malformed']) {
    assert.equal(r(id).status, 'not_applicable', `${id}: ${r(id).detail}`);
    assert.match(r(id).detail, /does not use authorization/);
  }
  assert.deepEqual(run.security.failingMust, [], 'no security MUST failed');
  assert.ok(run.security.grade === 'A' || run.security.grade === 'B', `security posture ${run.security.grade} (${run.security.score})`);
});
