/**
 * Connection error messages say what happened: a server whose stdout is not MCP is reported as
 * such (not only as a timeout), and targets are named without an `http:http://` prefix. Real
 * child processes and real loopback sockets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectMcp, describeTarget } from '../../pipeline/mcp/client.ts';

test('a stdio server that prints garbage on stdout: "its stdout was not MCP", not just a timeout', async () => {
  const target = {
    kind: 'stdio' as const,
    command: process.execPath,
    args: ['-e', "setInterval(() => console.log('hello, I am a log line'), 50)"],
  };
  await assert.rejects(connectMcp(target, { timeoutMs: 1500 }), (e: Error) => {
    assert.match(e.message, /^cannot connect to stdio:.*: its stdout was not MCP \(/);
    return true;
  });
});

test('an HTTP target is named by its URL (no "http:http://"), and the status shows in the message', async () => {
  const srv = createServer((_req, res) => {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('nothing here');
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/mcp`;
  try {
    assert.equal(describeTarget({ kind: 'http', url }), url);
    await assert.rejects(connectMcp({ kind: 'http', url }, { timeoutMs: 5000 }), (e: Error) => {
      assert.doesNotMatch(e.message, /http:http/);
      assert.match(e.message, new RegExp(`^cannot connect to ${url.replace(/[.]/g, '\\.')}: .*404`));
      assert.doesNotMatch(e.message, /: $|: \(/, 'no empty message after a colon');
      return true;
    });
  } finally {
    srv.close();
  }
});
