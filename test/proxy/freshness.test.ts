/**
 * The reference proxy keeps its index fresh on 2026-07-28: a list past its ttlMs is re-listed
 * before retrieve_tools answers (and not before), and a change announced on the
 * subscriptions/listen stream reaches the index without waiting for the ttl. Real fixture
 * processes over stdio (pipeline/fixture/list-changes.ts), the proxy in-process over loopback HTTP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resultText } from '../../pipeline/mcp/client.ts';
import { callJson, fixtureServer, waitFor, withProxy } from './helpers.ts';

const TTL = 1500;

async function listCount(c: Parameters<typeof callJson>[0]): Promise<number> {
  const { json } = await callJson(c, 'call_tool', { name: 'fx:stats', arguments: {} });
  return Number(json?.methods?.['tools/list'] ?? 0);
}
const search = async (c: Parameters<typeof callJson>[0], q: string): Promise<string[]> =>
  (await callJson(c, 'retrieve_tools', { query: q })).json.tools.map((t: { name: string }) => t.name);

test('2026-07-28 ttlMs: an expired list is re-listed before retrieve_tools answers, a fresh one is not', async () => {
  const fx = { ...fixtureServer('fx', { FIXTURE_TTL_MS: String(TTL) }), protocol: '2026-07-28' };
  await withProxy({ servers: [fx], health_interval_ms: 0 }, async (_p, c, logs) => {
    await new Promise((r) => setTimeout(r, TTL + 200));
    const n0 = await listCount(c);
    await search(c, 'echo'); // past the ttl: one re-list first
    const n1 = await listCount(c);
    assert.equal(n1, n0 + 1, logs.join('\n'));
    await search(c, 'echo'); // within the ttl of that re-list: none
    assert.equal(await listCount(c), n1, logs.join('\n'));
  });
});

test('2025-11-25 lists carry no ttlMs: retrieve_tools never re-lists on its own', async () => {
  await withProxy({ servers: [fixtureServer('fx', { FIXTURE_TTL_MS: String(TTL) })], health_interval_ms: 0 }, async (_p, c) => {
    await new Promise((r) => setTimeout(r, TTL + 200));
    const n0 = await listCount(c);
    await search(c, 'echo');
    assert.equal(await listCount(c), n0);
  });
});

test('2026-07-28 subscriptions/listen: an announced change reaches the index long before the ttl', async () => {
  const fx = { ...fixtureServer('fx', { FIXTURE_LIST_CHANGES: '1', FIXTURE_TTL_MS: '600000' }), protocol: '2026-07-28' };
  await withProxy({ servers: [fx], health_interval_ms: 0 }, async (p, c, logs) => {
    await waitFor(
      'the listen stream',
      () => logs.some((l) => l.includes('listening for tool list changes (subscriptions/listen)')),
      (v) => v,
      20_000,
    );
    assert.deepEqual(await search(c, 'lanternfish'), []);
    process.kill(p.upstreamStatus()[0].pid!, 'SIGUSR2');
    await waitFor(
      'the new tool in the index',
      () => search(c, 'lanternfish'),
      (v) => v.includes('fx:fresh_added'),
      10_000,
    );
    const gone = await c.callTool('call_tool', { name: 'fx:large', arguments: { bytes: 4 } });
    assert.equal(gone.isError, true);
    assert.match(resultText(gone), /unknown tool 'fx:large'/);
  });
});
