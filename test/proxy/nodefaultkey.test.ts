/**
 * No well-known default key, and the filesystem upstream of the example config cannot reach the
 * proxy's own configs: it is rooted in a private temp folder (`${SCRATCH_DIR}`) that goes when
 * the proxy stops. Real proxy, real filesystem reference server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadProxyConfig, startProxy } from '../../pipeline/proxy/index.ts';
import { callJson, connectProxy, REPO } from './helpers.ts';

const DIR = join(REPO, 'datasets', 'proxy');

test('no file ships a fixed default proxy key (configs, compose file)', () => {
  for (const f of [
    ...readdirSync(DIR)
      .filter((x) => x.endsWith('.json'))
      .map((x) => join(DIR, x)),
    join(REPO, 'docker-compose.yml'),
  ]) {
    const text = readFileSync(f, 'utf8');
    assert.doesNotMatch(text, /API_KEY:-[^}]/, `${f}: a default key after :-`);
    assert.doesNotMatch(text, /"api_key"\s*:\s*"[^$"]/, `${f}: a literal api_key`);
  }
});

test('reference-servers.json: no key configured -> a random key is generated and printed; filesystem is jailed in a scratch folder removed on close', async () => {
  const full = loadProxyConfig(join(DIR, 'reference-servers.json'), {});
  const config = { ...full, servers: full.servers.filter((s) => s.name === 'filesystem'), connect_timeout_ms: 120_000 };
  const fsEntry = config.servers[0] as { args: string[] };
  const root = fsEntry.args.at(-1)!;
  assert.ok(config.scratch_dir && root === config.scratch_dir, `filesystem root ${root} is the scratch folder`);
  assert.ok(!DIR.startsWith(root) && !root.startsWith(DIR), 'the root is neither the config folder nor above it');
  const logs: string[] = [];
  const saved = process.env.MCPGAUGE_PROXY_API_KEY;
  delete process.env.MCPGAUGE_PROXY_API_KEY;
  const proxy = await startProxy(config, { transport: 'http', port: 0, log: (m) => logs.push(m) });
  if (saved !== undefined) process.env.MCPGAUGE_PROXY_API_KEY = saved;
  const canary = join(DIR, 'canary-written-by-test.txt');
  try {
    assert.ok(proxy.apiKey.length >= 20 && proxy.apiKey !== 'change-me', 'a random key');
    assert.ok(
      logs.some((l) => l.includes(proxy.apiKey) && /generated/.test(l)),
      'the generated key is printed',
    );
    const c = await connectProxy(proxy);
    try {
      const inside = await callJson(c, 'call_tool', {
        name: 'filesystem:write_file',
        arguments: { path: join(root, 'ok.txt'), content: 'x' },
      });
      assert.notEqual(inside.result.isError, true, JSON.stringify(inside.result));
      const outside = await callJson(c, 'call_tool', { name: 'filesystem:write_file', arguments: { path: canary, content: 'pwned' } });
      assert.equal(outside.result.isError, true, 'writing next to the proxy configs must be refused');
      assert.equal(existsSync(canary), false);
    } finally {
      await c.close();
    }
  } finally {
    await proxy.close();
    rmSync(canary, { force: true });
  }
  assert.equal(existsSync(root), false, 'the scratch folder is removed when the proxy stops');
});
