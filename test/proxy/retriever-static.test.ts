/**
 * The reference proxy behind embed_static / hybrid_static (real model, fetched like the bench
 * does; skipped without it, failed under CI=true): rankings equal the offline retriever's on the
 * same index docs; an upstream that announces a new tool is re-indexed incrementally (only the
 * new tool is embedded); without the model the proxy refuses to start with one line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startProxy, validateProxyConfig } from '../../pipeline/proxy/index.ts';
import { proxyIndexDoc, toolRecordOf } from '../../pipeline/proxy/catalog.ts';
import { createRetriever } from '../../pipeline/retrieval/registry.ts';
import { staticEmbedStats } from '../../pipeline/retrieval/embed_static.ts';
import { connectMcp } from '../../pipeline/mcp/client.ts';
import { UserError } from '../../pipeline/types.ts';
import { callJson, connectProxy, fixtureServer, quiet, REPO, tempDir, waitFor } from './helpers.ts';
import { modelSkip } from '../models/need_model.ts';

const skip = await modelSkip();
const growing = { name: 'dyn', command: process.execPath, args: [join(REPO, 'test', 'proxy', 'servers', 'growing.mjs')] };
const servers = [fixtureServer('fixture'), growing];
const QUERY = 'wait some milliseconds before answering';

test('proxy --retriever embed_static / hybrid_static: offline ranking, incremental re-index on list_changed', { skip }, async () => {
  for (const retriever of ['embed_static', 'hybrid_static']) {
    const config = validateProxyConfig(
      { servers, api_key: 'k', listen: { host: '127.0.0.1', port: 0 }, connect_timeout_ms: 90_000, health_interval_ms: 0 },
      'test',
      {},
    );
    const p = await startProxy(config, { transport: 'http', log: quiet(), retriever });
    try {
      const c = await connectProxy(p);
      try {
        await waitFor(
          'the index',
          () => p.toolCount(),
          (n) => n > 1,
        );
        // the same docs offline
        const fx = fixtureServer('fixture');
        const direct = await connectMcp({ kind: 'stdio', command: fx.command, args: fx.args, env: fx.env }, { timeoutMs: 90_000 });
        const fixtureTools = await direct.listAllTools().finally(() => direct.close());
        const docs = [
          ...fixtureTools.map((t) => proxyIndexDoc(toolRecordOf('fixture', t))),
          proxyIndexDoc(
            toolRecordOf('dyn', {
              name: 'grow',
              description: 'Adds a tool to this server.',
              inputSchema: {
                type: 'object',
                properties: { name: { type: 'string' }, description: { type: 'string' } },
                required: ['name', 'description'],
              },
            }),
          ),
        ];
        const off = createRetriever(retriever);
        off.build(docs.sort((a, b) => (a.tool_id < b.tool_id ? -1 : 1)));
        const { json } = await callJson(c, 'retrieve_tools', { query: QUERY, limit: 5 });
        assert.deepEqual(
          json.tools.map((t: { name: string }) => t.name),
          (off.search(QUERY, 5) as { tool_id: string }[]).map((h) => h.tool_id),
        );
        assert.equal(json.tools[0].name, 'fixture:slow');
        // a new tool upstream: re-indexed, only it embedded
        const before = staticEmbedStats();
        const n = p.toolCount();
        await c.callTool('call_tool', {
          name: 'dyn:grow',
          arguments: { name: `tune_${retriever}`, description: 'Calibrate the quantum flux capacitor of the time machine.' },
        });
        await waitFor(
          're-indexed',
          () => p.toolCount(),
          (x) => x === n + 1,
          20_000,
        );
        const after = staticEmbedStats();
        assert.equal(after.embedded - before.embedded, 1, 'only the new tool was embedded');
        assert.ok(after.reused - before.reused >= n);
        const hit = await callJson(c, 'retrieve_tools', { query: 'adjust the flux capacitor', limit: 1 });
        assert.equal(hit.json.tools[0].name, `dyn:tune_${retriever}`);
      } finally {
        await c.close();
      }
    } finally {
      await p.close();
    }
  }
});

test('proxy --retriever embed_static without the model (and no fetch): a one-line error', async () => {
  const tmp = tempDir('proxy-static');
  try {
    const config = validateProxyConfig({ servers: [fixtureServer('fixture')], listen: { host: '127.0.0.1', port: 0 } }, 'test', {});
    await assert.rejects(
      startProxy(config, {
        transport: 'http',
        log: quiet(),
        retriever: 'hybrid_static',
        retrieverOptions: { modelsDir: tmp.dir, modelFetch: false },
      }),
      (e: unknown) =>
        e instanceof UserError && e.message === 'proxy --retriever hybrid_static: skipped: model not available (mcpgauge models fetch)',
    );
  } finally {
    tmp.cleanup();
  }
});
