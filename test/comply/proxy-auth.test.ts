/**
 * The prober against a real key-guarded server: the reference proxy over loopback HTTP, which
 * takes its key as `X-API-Key` or `Authorization: Bearer`, and answers a missing key with a 401
 * whose body is not JSON-RPC. Two false failures this guards against (both seen in the gate):
 * - a probe that withholds the credential must drop every credential header the user gave, not
 *   only Authorization (else the X-API-Key still opens the door and "accepts unauthenticated" fails);
 * - an auth gate's non-JSON-RPC body is an HTTP-level answer, not a JSON-RPC response with no id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comply } from '../../pipeline/comply/comply.ts';
import { withProxy, fixtureServer } from '../proxy/helpers.ts';

test('reference proxy with X-API-Key and Bearer: the auth checks see its 401s; no envelope or id false failures', async () => {
  // a key of realistic length: redaction leaves strings under 4 characters alone (util/redact.ts)
  await withProxy({ servers: [fixtureServer()], api_key: 'comply-auth-test-key-3f9a' }, async (p) => {
    const { report } = await comply(
      { kind: 'http', url: p.url, headers: { 'X-API-Key': p.apiKey, Authorization: `Bearer ${p.apiKey}` } },
      {
        spec: '2026-07-28',
        timeoutMs: 15_000,
        startupTimeoutMs: 60_000,
        selection: { only: [], skip: [] },
        invasive: false,
        secrets: [p.apiKey],
      },
    );
    const run = report.runs[0];
    const st = (id: string) => run.results.find((r) => r.id === id)?.status;
    assert.equal(st('security-auth-required'), 'pass', JSON.stringify(run.results.find((r) => r.id === 'security-auth-required')));
    assert.equal(st('security-auth-malformed'), 'pass');
    assert.equal(st('lifecycle-id-match'), 'pass');
    assert.equal(st('lifecycle-jsonrpc-envelope'), 'pass');
    assert.ok(!JSON.stringify(report).includes(p.apiKey), 'the key appears in no finding');
  });
});
