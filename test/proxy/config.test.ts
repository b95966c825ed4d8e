import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { UserError } from '../../pipeline/types.ts';
import { loadProxyConfig, validateProxyConfig, CONFIG_DEFAULTS } from '../../pipeline/proxy/index.ts';
import { discardScratch } from '../../pipeline/proxy/config.ts';
import { MCPGAUGE_BIN, REPO, tempDir } from './helpers.ts';

const ok = { servers: [{ name: 'a', command: 'node', args: ['x.js'] }] };

function err(raw: unknown, env: NodeJS.ProcessEnv = {}): string {
  try {
    validateProxyConfig(raw, 'cfg.json', env);
  } catch (e) {
    assert.ok(e instanceof UserError, `expected UserError, got ${(e as Error).name}: ${(e as Error).message}`);
    assert.ok(!(e as Error).message.includes('\n'), 'one line');
    return (e as Error).message;
  }
  assert.fail('expected a UserError');
}

test('a minimal config gets the documented defaults', () => {
  const c = validateProxyConfig(ok, 'cfg.json', {});
  assert.deepEqual(c.servers, [{ name: 'a', command: 'node', args: ['x.js'], env: {} }]);
  assert.deepEqual(c.listen, { host: '127.0.0.1', port: 8092 });
  assert.equal(c.call_timeout_ms, CONFIG_DEFAULTS.call_timeout_ms);
  assert.equal(c.tools_limit, 15);
  assert.equal(c.api_key, undefined);
  assert.deepEqual(c.restart, CONFIG_DEFAULTS.restart);
  assert.equal(c.max_buffered_bytes, 64 * 1024 * 1024);
  assert.equal(c.max_upstream_list_bytes, 16 * 1024 * 1024);
  const set = validateProxyConfig({ ...ok, max_buffered_bytes: 8 * 1024 * 1024, max_upstream_list_bytes: 65536 }, 'cfg.json', {});
  assert.equal(set.max_buffered_bytes, 8 * 1024 * 1024);
  assert.equal(set.max_upstream_list_bytes, 65536);
  assert.throws(
    () => validateProxyConfig({ ...ok, max_buffered_bytes: 5 }, 'cfg.json', {}),
    /cfg\.json: field "max_buffered_bytes" must be an integer in 1048576\.\.17179869184, got 5/,
  );
  assert.throws(
    () => validateProxyConfig({ ...ok, max_upstream_list_bytes: 'big' }, 'cfg.json', {}),
    /cfg\.json: field "max_upstream_list_bytes" must be an integer in 65536\.\.1073741824, got "big"/,
  );
});

test('remote entries: transport defaults to streamable-http, sse accepted, headers kept', () => {
  const c = validateProxyConfig(
    {
      servers: [
        { name: 'h', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
        { name: 's', url: 'https://example.test/sse', transport: 'sse' },
      ],
    },
    'cfg.json',
    {},
  );
  assert.deepEqual(c.servers[0], {
    name: 'h',
    url: 'http://127.0.0.1:9/mcp',
    transport: 'streamable-http',
    headers: { Authorization: 'Bearer x' },
  });
  assert.equal((c.servers[1] as { transport: string }).transport, 'sse');
});

test('bad configs name the entry (index and name) and the field', () => {
  assert.match(err([]), /^cfg\.json: top level must be a JSON object$/);
  assert.match(err({}), /missing field "servers"/);
  assert.match(err({ servers: [] }), /field "servers" is empty/);
  assert.match(err({ servers: ok.servers, extra: 1 }), /unknown field "extra"/);
  assert.match(
    err({ servers: [ok.servers[0], { name: 'b', command: '' }] }),
    /^cfg\.json: servers\[1\] \("b"\): field "command" must be a non-empty string$/,
  );
  assert.match(
    err({ servers: [ok.servers[0], { name: 'a', command: 'x' }] }),
    /servers\[1\] \("a"\): field "name" duplicates an earlier entry/,
  );
  assert.match(err({ servers: [{ name: 'a:b', command: 'x' }] }), /servers\[0\] \("a:b"\): field "name" must be 1-64 characters/);
  assert.match(err({ servers: [{ command: 'x' }] }), /servers\[0\]: field "name"/);
  assert.match(err({ servers: [{ name: 'n' }] }), /servers\[0\] \("n"\): field "command" is missing/);
  assert.match(err({ servers: [{ name: 'n', command: 'x', url: 'http://a/' }] }), /servers\[0\] \("n"\): field "url" cannot be combined/);
  assert.match(err({ servers: [{ name: 'n', url: 'not a url' }] }), /servers\[0\] \("n"\): field "url" is not a valid URL: "not a url"/);
  assert.match(err({ servers: [{ name: 'n', url: 'ftp://a/' }] }), /field "url" must be http:\/\/ or https:\/\//);
  assert.match(
    err({ servers: [{ name: 'n', url: 'http://a/', transport: 'websocket' }] }),
    /servers\[0\] \("n"\): field "transport" must be "streamable-http" or "sse", got "websocket"/,
  );
  assert.match(err({ servers: [{ name: 'n', command: 'x', args: 'a b' }] }), /field "args" must be an array of strings/);
  assert.match(err({ servers: [{ name: 'n', command: 'x', env: { A: 1 } }] }), /field "env\.A" must be a string, got 1/);
  assert.match(err({ servers: [{ name: 'n', command: 'x', headers: {} }] }), /field "headers" is not allowed in a stdio entry/);
  assert.match(err({ servers: [{ name: 'n', url: 'http://a/', cwd: '/' }] }), /field "cwd" is not allowed in a remote entry/);
  assert.match(err({ ...ok, call_timeout_ms: 0 }), /field "call_timeout_ms" must be an integer in 1\.\.86400000, got 0/);
  assert.match(err({ ...ok, listen: { port: 70000 } }), /field "listen\.port" must be an integer in 0\.\.65535, got 70000/);
  assert.match(err({ ...ok, listen: { bind: 'x' } }), /listen: unknown field "bind"/);
  assert.match(err({ ...ok, tools_limit: 500 }), /field "tools_limit" must be an integer in 1\.\.100/);
  assert.match(err({ ...ok, restart: { initial_ms: 500, max_ms: 100 } }), /"restart\.max_ms" must be >= "restart\.initial_ms"/);
  assert.match(err({ ...ok, upstream_protocol: 'v9' }), /field "upstream_protocol" must be one of legacy\|auto\|2026-07-28/);
  assert.match(err({ ...ok, api_key: '' }), /field "api_key" is empty/);
});

test('${VAR} substitution for secrets, with defaults and a clear error when unset', () => {
  const c = validateProxyConfig(
    {
      servers: [
        { name: 'h', url: 'http://${HOST:-127.0.0.1}:${PORT}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        { name: 's', command: 'node', args: ['$${literal}'], env: { KEY: '${TOKEN}' } },
      ],
      api_key: '${PROXY_KEY}',
    },
    'cfg.json',
    { PORT: '8123', TOKEN: 'sekret', PROXY_KEY: 'pk' },
  );
  assert.equal((c.servers[0] as { url: string }).url, 'http://127.0.0.1:8123/mcp');
  assert.deepEqual((c.servers[0] as { headers: unknown }).headers, { Authorization: 'Bearer sekret' });
  assert.deepEqual((c.servers[1] as { args: string[] }).args, ['${literal}']);
  assert.deepEqual((c.servers[1] as { env: unknown }).env, { KEY: 'sekret' });
  assert.equal(c.api_key, 'pk');
  assert.match(
    err({ servers: [{ name: 'h', url: 'http://a/', headers: { 'X-Token': '${MISSING_TOKEN}' } }] }),
    /^cfg\.json: servers\[0\] \("h"\): field "headers\.X-Token": environment variable MISSING_TOKEN is not set$/,
  );
  assert.match(err({ ...ok, api_key: '${NOPE}' }), /field "api_key": environment variable NOPE is not set/);
});

test('loadProxyConfig: missing file and malformed JSON name the file; ${CONFIG_DIR} is the file folder', () => {
  const t = tempDir('proxycfg');
  try {
    assert.throws(
      () => loadProxyConfig(`${t.dir}/absent.json`),
      (e: Error) => e instanceof UserError && /absent\.json: cannot read file \(ENOENT\)/.test(e.message),
    );
    const bad = t.write('bad.json', '{"servers": [');
    assert.throws(
      () => loadProxyConfig(bad),
      (e: Error) => e instanceof UserError && e.message.startsWith(`${bad}: malformed JSON`),
    );
    const good = t.write('good.json', { servers: [{ name: 'a', command: 'node', args: ['${CONFIG_DIR}/srv.js'] }] });
    const c = loadProxyConfig(good, {});
    assert.deepEqual((c.servers[0] as { args: string[] }).args, [`${t.dir}/srv.js`]);
    assert.equal(c.source, good);
  } finally {
    t.cleanup();
  }
});

test('CLI: a bad config exits 2 (could not run as asked) with one line naming entry and field', () => {
  const t = tempDir('proxycli');
  try {
    const p = t.write('p.json', {
      servers: [
        { name: 'mem', command: 'node' },
        { name: 'web', url: 'http://127.0.0.1:1/mcp', transport: 'ws' },
      ],
    });
    const r = spawnSync(process.execPath, [MCPGAUGE_BIN, 'proxy', '--config', p, '--port', '0'], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr, `mcpgauge: ${p}: servers[1] ("web"): field "transport" must be "streamable-http" or "sse", got "ws"\n`);
  } finally {
    t.cleanup();
  }
});

test('example configs in datasets/proxy/ validate and name files that exist', () => {
  const dir = `${REPO}/datasets/proxy`;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  assert.deepEqual(files, ['docker-host.json', 'docker.json', 'fixture-http.json', 'reference-servers.json']);
  for (const f of files) {
    const c = loadProxyConfig(`${dir}/${f}`, {});
    discardScratch(c);
    assert.ok(c.servers.length >= 1, f);
    if (f === 'docker.json' || f === 'docker-host.json') continue; // paths inside the image, checked by the compose tests
    for (const s of c.servers) {
      if (!('command' in s)) continue;
      const script = s.args[0];
      assert.ok(existsSync(script), `${f}: ${s.name}: ${script} exists`);
    }
  }
  const ref = loadProxyConfig(`${dir}/reference-servers.json`, {});
  discardScratch(ref);
  assert.deepEqual(
    ref.servers.map((s) => s.name),
    ['filesystem', 'memory', 'sequential-thinking', 'everything', 'fixture'],
  );
  // no fixed default key: the proxy takes MCPGAUGE_PROXY_API_KEY / --api-key or generates one (test/proxy/nodefaultkey.test.ts)
  assert.equal(ref.api_key, undefined);
});
