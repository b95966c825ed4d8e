/**
 * The deprecated HTTP+SSE transport is graded, not only detected: the prober opens the GET
 * stream, POSTs to the URI of its `endpoint` event and reads the answers off the stream. The
 * clean fixture (its SSE transport) passes every applicable 2025-11-25 check over that wire, and
 * knobs named on the stream's GET flip their checks over it (the wire can carry a failure).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureProcess, type FixtureProcess } from '../../pipeline/fixture/launch.ts';
import { FEATURES, notPassing, urlRuns } from './harness.ts';

describe('legacy HTTP+SSE wire', { concurrency: 1, timeout: 120_000 }, () => {
  let fx: FixtureProcess;
  before(async () => {
    fx = await startFixtureProcess({ transport: 'sse', env: { ...FEATURES, FIXTURE_BREAK: 'per-request' }, readyTimeoutMs: 60_000 });
  });
  after(async () => {
    await fx?.stop();
  });

  it('auto era: detected as HTTP+SSE, graded on 2025-11-25 over the SSE wire, every applicable check passes', async () => {
    const [r, ...more] = await urlRuns(fx.url, ['auto'], { 'X-Fixture-Break': 'none' });
    assert.equal(more.length, 0);
    assert.equal(r.wire, 'sse');
    assert.equal(r.revision, '2025-11-25');
    assert.deepEqual(notPassing(r), []);
    assert.equal(r.conformance.grade, 'A');
    assert.ok(r.results.filter((x) => x.status === 'pass').length > 40, 'enough checks evaluated over the stream');
    // streamable-HTTP checks do not apply to this transport
    assert.equal(r.results.find((x) => x.id === 'transport-post')?.reason, 'transport');
  });

  it('knobs named on the stream flip their checks over the SSE wire, and nothing else fails', async () => {
    const [r] = await urlRuns(fx.url, ['2025-11-25'], { 'X-Fixture-Break': 'mojibake-output,unknown-method-ok,sse-non-jsonrpc-data' });
    assert.equal(r.wire, 'sse');
    const failed = r.results
      .filter((x) => x.status === 'fail')
      .map((x) => x.id)
      .sort();
    assert.deepEqual(failed, ['error-unknown-method', 'transport-sse-data-jsonrpc', 'transport-unicode-roundtrip']);
  });
});
