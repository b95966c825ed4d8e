/**
 * The proxy forwards what the caller sends along with a call: its `_meta` (and the upstream's
 * result `_meta` comes back) and its cancellation (notifications/cancelled reaches the upstream).
 * The test-only sabotage switches turn each off, so the same checks must then fail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resultText } from '../../pipeline/mcp/client.ts';
import { startProxy, validateProxyConfig } from '../../pipeline/proxy/index.ts';
import { SABOTAGE_ENV, readSabotage } from '../../pipeline/proxy/sabotage.ts';
import { connectProxy, fixtureServer } from './helpers.ts';

const HANG = { BACKEND_MODE: 'hang', HANG_AFTER_N: '1', FAULT_METHODS: 'tools/call' };

async function withProxy(sabotage: string, fn: (c: Awaited<ReturnType<typeof connectProxy>>) => Promise<void>) {
  const before = process.env[SABOTAGE_ENV];
  process.env[SABOTAGE_ENV] = sabotage;
  try {
    const config = validateProxyConfig({ servers: [fixtureServer('fx'), fixtureServer('hang', HANG)], call_timeout_ms: 20_000 }, 'test');
    const p = await startProxy(config, { transport: 'http', port: 0, apiKey: 'k'.repeat(16), log: () => {} });
    try {
      const c = await connectProxy(p);
      try {
        await fn(c);
      } finally {
        await c.close();
      }
    } finally {
      await p.close();
    }
  } finally {
    if (before === undefined) delete process.env[SABOTAGE_ENV];
    else process.env[SABOTAGE_ENV] = before;
  }
}

async function hangingAfterCancel(c: Awaited<ReturnType<typeof connectProxy>>): Promise<number> {
  const ac = new AbortController();
  const call = c.callTool('call_tool', { name: 'hang:echo', arguments: { input: 'x' } }, { signal: ac.signal, timeoutMs: 20_000 });
  // wait until the upstream holds the call
  for (let i = 0; i < 100; i++) {
    const s = JSON.parse(resultText(await c.callTool('call_tool', { name: 'hang:stats', arguments: {} })));
    if (s.fault.hanging === 1) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  ac.abort();
  await assert.rejects(call);
  let hanging = -1;
  for (let i = 0; i < 20; i++) {
    hanging = JSON.parse(resultText(await c.callTool('call_tool', { name: 'hang:stats', arguments: {} }))).fault.hanging;
    if (hanging === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return hanging;
}

test('the caller _meta reaches the upstream and comes back; a cancelled call is cancelled upstream', async () => {
  await withProxy('', async (c) => {
    const r = await c.callTool('call_tool', { name: 'fx:echo', arguments: { input: 'abc' } }, { meta: { 'x/trace': 't1', n: 2 } });
    assert.equal(resultText(r), '{"output":"abc"}');
    assert.deepEqual(r._meta, { 'x/trace': 't1', n: 2 });
    assert.equal(await hangingAfterCancel(c), 0);
  });
});

test('sabotage drop-meta and swallow-cancel break exactly those two', async () => {
  await withProxy('drop-meta,swallow-cancel', async (c) => {
    const r = await c.callTool('call_tool', { name: 'fx:echo', arguments: { input: 'abc' } }, { meta: { 'x/trace': 't1' } });
    assert.equal(resultText(r), '{"output":"abc"}');
    assert.equal(r._meta, undefined);
    assert.equal(await hangingAfterCancel(c), 1);
  });
});

test('an unknown sabotage switch is an error, not silently nothing', () => {
  assert.throws(() => readSabotage({ [SABOTAGE_ENV]: 'drop-meta,typo' }), /unknown switch "typo"/);
  assert.deepEqual([...readSabotage({ [SABOTAGE_ENV]: ' serialize , no-timeout' })], ['serialize', 'no-timeout']);
});
