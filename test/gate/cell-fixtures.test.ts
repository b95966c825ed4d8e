/**
 * The cell fixtures' fault environments over a real HTTP+SSE fixture: the hang role hangs the
 * cancel step's echo call whatever arrives first. The cancel step starts the hanging call and polls
 * `stats` at once; over HTTP the proxy's two POSTs can reach the fixture in either order, and with
 * "the first tools/call hangs" a stats call that came first hung until the proxy's call timeout
 * (the sse cell went red in CI). Here the stats call is sent first on purpose.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectMcp, resultText } from '../../pipeline/mcp/client.ts';
import { faultEnv } from '../../pipeline/gate/cell-fixtures.ts';
import { loadGateConfig } from '../../pipeline/gate/config.ts';
import { inprocFixture, until } from '../fixture/helpers.ts';

test('hang role: a stats call before the hanging echo answers; the echo `hangme` hangs and is freed on cancel', async () => {
  const fx = await inprocFixture({ transport: 'sse' }, faultEnv('hang', loadGateConfig()));
  const c = await connectMcp({ kind: 'sse', url: fx.url }, { protocol: 'legacy', timeoutMs: 5000 });
  try {
    const stats = async () => JSON.parse(resultText(await c.callTool('stats', {}))).fault as { hanging: number };
    assert.equal((await stats()).hanging, 0, 'a stats call that arrives before the hanging call is answered');
    const ac = new AbortController();
    const hung = c.callTool('echo', { input: 'hangme' }, { signal: ac.signal, timeoutMs: 20_000 });
    hung.catch(() => {});
    await until(() => fx.state.gate.stats().hanging === 1, 10_000, 'the echo call to hang');
    assert.equal((await stats()).hanging, 1, 'a stats call while the echo call hangs is answered');
    ac.abort();
    await assert.rejects(hung);
    await until(() => fx.state.gate.stats().hanging === 0, 10_000, 'the hung call to be freed');
    assert.equal(resultText(await c.callTool('echo', { input: 'after' })), '{"output":"after"}');
  } finally {
    await c.close();
    await fx.stop();
  }
});
