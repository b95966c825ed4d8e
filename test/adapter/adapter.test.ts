/** The proxy adapter: templates, name matching, style detection, and real sessions over real processes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  endpointTemplate,
  httpTarget,
  parseTransport,
  fillCommand,
  fillConfig,
  launchProxy,
  matchToolName,
  openProxySession,
  redact,
  freePort,
  adapterOptionsFromFlags,
} from '../../pipeline/adapter/index.ts';
import { fixtureStdioTarget } from '../../pipeline/fixture/launch.ts';
import { resultText } from '../../pipeline/mcp/client.ts';
import { UserError } from '../../pipeline/types.ts';

const REPO = resolve(import.meta.dirname, '..', '..');

test('fillCommand: an argv placeholder alone in a word expands into words; others fill inside their word', () => {
  const argv = fillCommand('gw --port={PORT} -- {FIXTURE_CMD} --child={FIXTURE_CMD}', { PORT: '123', FIXTURE_CMD: ['node', 'a b.js'] });
  assert.deepEqual(argv, ['gw', '--port=123', '--', 'node', 'a b.js', "--child=node 'a b.js'"]);
  assert.throws(
    () => fillCommand('x {NOPE:hang}', { PORT: '1' }),
    (e: Error) => e instanceof UserError && /unknown placeholder \{NOPE:hang\}/.test(e.message),
  );
});

test('fillCommand: a quoted argv placeholder stays one word (shell quoting), e.g. supergateway --stdio "{FIXTURE_CMD}"', () => {
  const values = { FIXTURE_CMD: ['env', 'A=1', 'node', 'a b.js'] };
  assert.deepEqual(fillCommand('gw --stdio "{FIXTURE_CMD}"', values), ['gw', '--stdio', "env A=1 node 'a b.js'"]);
  assert.deepEqual(fillCommand("gw --stdio '{FIXTURE_CMD}'", values), ['gw', '--stdio', "env A=1 node 'a b.js'"]);
  assert.deepEqual(fillCommand('gw -- {FIXTURE_CMD}', values), ['gw', '--', 'env', 'A=1', 'node', 'a b.js']);
});

test('transport: one option for the gate and the live stage; endpoints are URL templates or paths', () => {
  assert.equal(parseTransport('sse', '--proxy-transport'), 'sse');
  assert.throws(
    () => parseTransport('ws', '--proxy-transport'),
    (e: Error) => e instanceof UserError && /--proxy-transport must be one of auto, streamable-http, sse, stdio, got "ws"/.test(e.message),
  );
  assert.throws(
    () => parseTransport('stdio', '--transport', ['auto', 'streamable-http', 'sse']),
    /--transport must be one of auto, streamable-http, sse/,
  );
  assert.equal(endpointTemplate('sse'), 'http://127.0.0.1:{PORT}/sse');
  assert.equal(endpointTemplate('streamable-http', '/v1/mcp'), 'http://127.0.0.1:{PORT}/v1/mcp');
  assert.equal(endpointTemplate('sse', 'http://127.0.0.1:{PORT}/events'), 'http://127.0.0.1:{PORT}/events');
  assert.deepEqual(httpTarget('http://127.0.0.1:9/', 'sse'), { kind: 'sse', url: 'http://127.0.0.1:9/sse', headers: {} });
  assert.equal(httpTarget('http://127.0.0.1:9/', 'streamable-http').url, 'http://127.0.0.1:9/mcp');
});

test('fillConfig: _JSON placeholders go in raw, other values are escaped for a JSON string', () => {
  const text = fillConfig(
    '{"cmd": "{FIXTURE_CMD}", "args": {FIXTURE_ARGS_JSON}, "u": "{FIXTURE_URL:hang}"}',
    {
      FIXTURE_CMD: ['say', 'a "quoted" word'],
      FIXTURE_ARGS_JSON: JSON.stringify(['x', 'y "z"']),
      'FIXTURE_URL:hang': 'http://127.0.0.1:1/mcp',
    },
    't.json',
  );
  assert.deepEqual(JSON.parse(text), { cmd: `say 'a "quoted" word'`, args: ['x', 'y "z"'], u: 'http://127.0.0.1:1/mcp' });
  assert.equal(redact('key=abcdef1234 and abcdef1234', ['abcdef1234']), 'key=[redacted] and [redacted]');
});

test('matchToolName: tool map, exact, prefixed, unprefixed single upstream, ambiguous', () => {
  const names = ['gate_main__echo', 'gate_hang__echo', 'gate_main__ping', 'other.echo_all'];
  assert.equal(matchToolName(names, 'gate_main', 'echo').name, 'gate_main__echo');
  assert.equal(matchToolName(names, 'gate_hang', 'echo').name, 'gate_hang__echo');
  assert.equal(matchToolName(names, 'gate_crash', 'echo').name, null);
  assert.equal(matchToolName(['a:echo', 'b:echo'], 'a', 'echo').name, 'a:echo');
  assert.equal(matchToolName(['echo', 'ping'], 'fixture', 'echo').name, 'echo');
  assert.equal(matchToolName(['x1', 'y'], 's', 'echo', { 's:echo': 'x1' }).name, 'x1');
  assert.equal(matchToolName(['y'], 's', 'echo', { 's:echo': 'x1' }).name, null);
  assert.equal(matchToolName(['s_a__echo', 's_b__echo'], 's', 'echo').name, null, 'two equally good matches are ambiguous');
});

test('adapterOptionsFromFlags: live-stage names, none, bad style', () => {
  const o = adapterOptionsFromFlags({ style: 'passthrough', discoveryTool: 'search', limitArg: 'none', queryArg: 'q' });
  assert.equal(o.style, 'passthrough');
  assert.equal(o.discoveryTool, 'search');
  assert.equal(o.argNames.limit, null);
  assert.equal(o.argNames.query, 'q');
  assert.throws(() => adapterOptionsFromFlags({ style: 'magic' }), /--style must be one of auto, discovery, passthrough/);
});

test('a reference proxy launched from a command + config template: discovery style, call with _meta round trip', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-adapter-'));
  const key = randomBytes(12).toString('hex');
  const fx = fixtureStdioTarget();
  assert.equal(fx.kind, 'stdio');
  const template = join(dir, 'tpl.json');
  writeFileSync(template, '{"servers": {SERVERS_JSON}, "listen": {"host": "127.0.0.1", "port": {PORT}}}');
  const port = await freePort();
  let out = '';
  const p = await launchProxy(
    {
      kind: 'command',
      command: `MCPGAUGE_PROXY_API_KEY={API_KEY} node {MCPGAUGE} proxy --config {CONFIG_FILE}`,
      configTemplate: template,
      url: 'http://127.0.0.1:{PORT}/mcp',
    },
    {
      workDir: dir,
      secrets: [key],
      onOutput: (s) => (out += s),
      values: {
        API_KEY: key,
        PORT: String(port),
        MCPGAUGE: join(REPO, 'bin', 'mcpgauge.mjs'),
        SERVERS_JSON: JSON.stringify([
          { name: 'fx', command: fx.kind === 'stdio' ? fx.command : '', args: fx.kind === 'stdio' ? fx.args : [] },
        ]),
      },
    },
  );
  try {
    assert.equal(p.served, 'http');
    assert.ok(!p.description.includes(key), 'the API key never shows in the description');
    let session;
    for (let i = 0; ; i++) {
      try {
        session = await openProxySession(p.target, { timeoutMs: 10_000 });
        break;
      } catch (e) {
        if (i > 100 || p.exit()) throw new Error(`proxy did not come up: ${(e as Error).message}; output: ${out}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    try {
      assert.equal(session.style, 'discovery');
      const nonce = `n${randomBytes(6).toString('hex')}`;
      const res = await session.call('fx:echo', { input: nonce }, { meta: { 'gate/nonce': nonce } });
      assert.equal(res.isError, undefined, resultText(res));
      assert.match(resultText(res), new RegExp(nonce));
      assert.deepEqual(res._meta, { 'gate/nonce': nonce }, 'the caller _meta comes back through the proxy');
      assert.equal((await session.resolve('fx:echo')).name, 'fx:echo');
    } finally {
      await session.close();
    }
  } finally {
    await p.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(p.exit() !== null, 'the proxy process is gone after stop()');
  assert.ok(!out.includes(key), 'the API key never reaches the captured output');
});

test('a server that lists upstream tools directly is detected as pass-through (unprefixed single upstream)', async () => {
  const session = await openProxySession(fixtureStdioTarget(), { timeoutMs: 20_000 });
  try {
    assert.equal(session.style, 'passthrough');
    const res = await session.call('fixture:echo', { input: 'abc123' });
    assert.equal(resultText(res), '{"output":"abc123"}');
    await assert.rejects(() => session.discover('echo'), /pass-through/);
  } finally {
    await session.close();
  }
});
