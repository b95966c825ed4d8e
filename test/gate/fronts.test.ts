/** What a --proxy-cmd template fronts, inferred from its fixture placeholders (issue 32 item 5). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseProxy, inferFronts } from '../../pipeline/gate/proxy.ts';
import { loadGateConfig } from '../../pipeline/gate/config.ts';

test('one {FIXTURE_CMD} / {FIXTURE_URL} / {FIXTURE_DOCKER_CMD}: one upstream of that transport; lists and roles: not inferred', () => {
  assert.deepEqual(inferFronts('mcp-proxy --port {PORT} -- {FIXTURE_CMD}')?.transports, ['stdio']);
  assert.equal(inferFronts('bridge --stdio "{FIXTURE_CMD}"')?.upstreams, 1);
  assert.deepEqual(inferFronts('bridge {FIXTURE_COMMAND} {FIXTURE_ARGS_JSON}')?.transports, ['stdio']);
  assert.deepEqual(inferFronts('bridge --sse {FIXTURE_URL}')?.transports, ['http-stateful', 'http-stateless', 'sse']);
  assert.deepEqual(inferFronts('bridge -- {FIXTURE_DOCKER_CMD}')?.transports, ['docker']);
  assert.equal(inferFronts('proxy --servers {SERVERS_JSON}'), undefined);
  assert.equal(inferFronts('proxy --config {CONFIG_FILE} -- {FIXTURE_CMD}'), undefined);
  assert.equal(inferFronts('proxy {FIXTURE_URL:main} {FIXTURE_URL:hang}'), undefined);
  assert.equal(inferFronts('proxy -- {FIXTURE_CMD} {FIXTURE_CMD}'), undefined);
  assert.equal(inferFronts('proxy --port {PORT}'), undefined);
});

test('chooseProxy: inferred fronts are said in the description; --fronts and a config template win', () => {
  const cfg = loadGateConfig();
  const c = chooseProxy({ proxyCmd: 'bridge --port {PORT} -- {FIXTURE_CMD}' }, cfg);
  assert.equal(c.fronts.upstreams, 1);
  assert.match(c.description, /\(fronts stdio:1, inferred: /);
  const explicit = chooseProxy({ proxyCmd: 'bridge --port {PORT} -- {FIXTURE_CMD}', fronts: 'stdio,sse:many' }, cfg);
  assert.equal(explicit.fronts.upstreams, 'many');
  assert.equal(explicit.fronts.source, '--fronts');
});
