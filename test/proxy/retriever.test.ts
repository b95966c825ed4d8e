/**
 * The reference proxy behind any registered retriever: a lexical one (sync path) and `embed`
 * over the loopback stand-in embeddings server (async path), with the fixture as the real
 * stdio upstream; the config's "retriever" field; the one-line errors.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { connectMcp, type WireTool } from '../../pipeline/mcp/client.ts';
import { startProxy, validateProxyConfig } from '../../pipeline/proxy/index.ts';
import { proxyIndexDoc, toolRecordOf } from '../../pipeline/proxy/catalog.ts';
import { createRetriever } from '../../pipeline/retrieval/registry.ts';
import { UserError } from '../../pipeline/types.ts';
import { callJson, connectProxy, fixtureServer, quiet, tempDir, waitFor } from './helpers.ts';
import { startStandIn } from '../retrieval/embed_standin.ts';

const tmp = tempDir('proxy-retriever');
after(() => tmp.cleanup());
const servers = [fixtureServer('fixture')];
const QUERY = 'wait some milliseconds before answering';

async function directTools(): Promise<[string, WireTool][]> {
  const s = servers[0];
  const c = await connectMcp({ kind: 'stdio', command: s.command, args: s.args, env: s.env }, { timeoutMs: 90_000 });
  try {
    return (await c.listAllTools()).map((t) => [`fixture:${t.name}`, t]);
  } finally {
    await c.close();
  }
}

async function proxyRanking(
  retriever: string | undefined,
  extra: Record<string, unknown>,
  opts: Record<string, unknown> = {},
): Promise<string[]> {
  const config = validateProxyConfig(
    { servers, api_key: 'k', listen: { host: '127.0.0.1', port: 0 }, connect_timeout_ms: 90_000, ...extra },
    'test',
    {},
  );
  const p = await startProxy(config, { transport: 'http', log: quiet(), retriever, retrieverOptions: opts });
  try {
    const c = await connectProxy(p);
    try {
      await waitFor(
        'the index',
        () => p.toolCount(),
        (n) => n > 0,
      );
      const { json, result } = await callJson(c, 'retrieve_tools', { query: QUERY, limit: 5 });
      assert.equal(result.isError, undefined);
      return json.tools.map((t: { name: string }) => t.name);
    } finally {
      await c.close();
    }
  } finally {
    await p.close();
  }
}

test('proxy --retriever: a lexical retriever and embed (async, loopback stand-in) rank like the offline retriever', async () => {
  const tools = await directTools();
  const docs = tools.map(([id, t]) => proxyIndexDoc(toolRecordOf(id.split(':')[0], t)));
  const offline = async (id: string, opts?: Record<string, unknown>) => {
    const r = createRetriever(id, opts);
    await r.build(docs);
    return (await r.search(QUERY, 5)).map((h) => h.tool_id);
  };
  const expand = await proxyRanking('bm25f_expand', {});
  assert.deepEqual(expand, await offline('bm25f_expand'));
  assert.equal(expand[0], 'fixture:slow');
  // the config's "retriever" field applies when no --retriever is given
  assert.deepEqual(await proxyRanking(undefined, { retriever: 'bm25' }), await offline('bm25'));
  const s = await startStandIn();
  try {
    const opts = { url: `${s.base}/v1/embeddings`, model: 'hash-64', cacheDir: join(tmp.dir, 'emb') };
    const dense = await proxyRanking('embed', {}, opts);
    assert.deepEqual(dense, await offline('embed', opts));
    assert.ok(dense.length > 0);
    assert.ok(s.requests.length >= 2, 'the proxy embedded the tools and the query over loopback');
  } finally {
    await s.close();
  }
});

test('proxy: embed without --embed-url and an unknown config retriever are one-line errors', async () => {
  const config = validateProxyConfig({ servers, listen: { host: '127.0.0.1', port: 0 } }, 'test', {});
  await assert.rejects(
    startProxy(config, { transport: 'http', log: quiet(), retriever: 'embed' }),
    (e: unknown) => e instanceof UserError && e.message === 'proxy --retriever embed: skipped: no --embed-url',
  );
  assert.throws(
    () => validateProxyConfig({ servers, retriever: 'bm99' }, 'cfg.json', {}),
    (e: unknown) =>
      e instanceof UserError &&
      /cfg\.json.*field "retriever" must be one of bm25f, .*got "bm99"/.test(e.message) &&
      !e.message.includes('\n'),
  );
});
