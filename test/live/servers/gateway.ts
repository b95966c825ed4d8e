/**
 * Small MCP gateways in front of the fixture, for the live-stage tests (real processes, loopback):
 *   --mode bridge  a stdio->HTTP pass-through bridge: the fixture over stdio, its tools re-exposed
 *                  unchanged (prefixed `fixture__`) over streamable HTTP at /mcp
 *   --mode sse     an SSE-only aggregator: the same tools (prefixed `fx.`) over the deprecated
 *                  HTTP+SSE transport only (GET /sse + POST /message); POST /mcp is 404
 * No discovery tool: both are what `--style auto` must detect as pass-through.
 * stderr: `listening on http://127.0.0.1:PORT/...`. SIGTERM/SIGINT or stdin EOF stop it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, createMcpHandler, fromJsonSchema } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { connectMcp, type WireTool } from '../../../pipeline/mcp/client.ts';
import { fixtureStdioTarget } from '../../../pipeline/fixture/launch.ts';

const mode = process.argv.includes('--mode') ? process.argv[process.argv.indexOf('--mode') + 1] : 'bridge';
const prefix = mode === 'sse' ? 'fx.' : 'fixture__';
const upstream = await connectMcp(fixtureStdioTarget(), { timeoutMs: 120_000 });
const tools: WireTool[] = await upstream.listAllTools();

function factory() {
  const server = new McpServer({ name: `test-gateway-${mode}`, version: '0.0.1' }, { capabilities: { tools: {} } });
  for (const t of tools) {
    server.registerTool(
      `${prefix}${t.name}`,
      {
        description: t.description ?? '',
        inputSchema: fromJsonSchema<Record<string, unknown>>((t.inputSchema ?? { type: 'object' }) as never),
      },
      async (args) => (await upstream.callTool(t.name, args as Record<string, unknown>)) as never,
    );
  }
  return server;
}

const sse = new Map<string, SSEServerTransport>();
const mcp = mode === 'bridge' ? toNodeHandler(createMcpHandler(factory, { legacy: 'stateless' })) : null;
const http = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://gateway.invalid');
  if (mcp && url.pathname === '/mcp') {
    void mcp(req, res);
    return;
  }
  if (mode === 'sse' && url.pathname === '/sse' && req.method === 'GET') {
    const t = new SSEServerTransport('/message', res);
    sse.set(t.sessionId, t);
    const h = serveStdio(factory, { transport: t as never });
    res.on('close', () => {
      sse.delete(t.sessionId);
      void h.close().catch(() => {});
    });
    return;
  }
  if (mode === 'sse' && url.pathname === '/message' && req.method === 'POST') {
    const t = sse.get(url.searchParams.get('sessionId') ?? '');
    if (!t) {
      res.writeHead(404).end('unknown session');
      return;
    }
    void t.handlePostMessage(req, res);
    return;
  }
  res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`not found: ${url.pathname}`);
});
await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
const port = (http.address() as AddressInfo).port;
process.stderr.write(`listening on http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}\n`);

const stop = async () => {
  http.closeAllConnections();
  http.close();
  await upstream.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
