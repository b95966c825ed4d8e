/**
 * docker-compose.yml: `docker compose config` must accept it when a compose client exists
 * (skipped with the reason otherwise); a static check always runs: the file is parsed with a
 * small YAML-subset reader (block maps, block lists, JSON-style flow lists and quoted
 * scalars; the compose file deliberately uses nothing else) and cross-checked against the
 * repo (Dockerfile, the proxy config it mounts, ports, service names).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProxyConfig } from '../../pipeline/proxy/index.ts';
import { REPO } from './helpers.ts';

type Y = string | Y[] | { [k: string]: Y };

/** Parse the YAML subset described above; throws on anything else (so the file stays simple). */
function parseSimpleYaml(text: string): Y {
  const lines = text
    .split('\n')
    .map((raw, i) => ({ raw: raw.replace(/\s+$/, ''), no: i + 1 }))
    .filter((l) => l.raw.trim() !== '' && !l.raw.trim().startsWith('#'));
  let pos = 0;
  const indentOf = (s: string) => s.length - s.trimStart().length;
  const scalar = (s: string, no: number): Y => {
    s = s.trim();
    if (s.startsWith('[')) {
      try {
        return JSON.parse(s) as Y;
      } catch {
        throw new Error(`line ${no}: flow list must be JSON: ${s}`);
      }
    }
    if (s.startsWith('"')) return JSON.parse(s) as string;
    if (/[#{}&*!|>'%@`]/.test(s[0] ?? '')) throw new Error(`line ${no}: unsupported YAML: ${s}`);
    return s;
  };
  const block = (indent: number): Y => {
    const first = lines[pos];
    if (first.raw.trimStart().startsWith('- ')) {
      const out: Y[] = [];
      while (pos < lines.length && indentOf(lines[pos].raw) === indent && lines[pos].raw.trimStart().startsWith('- ')) {
        out.push(scalar(lines[pos].raw.trimStart().slice(2), lines[pos].no));
        pos++;
      }
      return out;
    }
    const out: { [k: string]: Y } = {};
    while (pos < lines.length && indentOf(lines[pos].raw) === indent) {
      const { raw, no } = lines[pos];
      const m = /^([A-Za-z0-9_.-]+):(?:\s+(.*))?$/.exec(raw.trim());
      if (!m) throw new Error(`line ${no}: expected "key:" or "key: value": ${raw.trim()}`);
      if (m[1] in out) throw new Error(`line ${no}: duplicate key ${m[1]}`);
      pos++;
      if (m[2] !== undefined && m[2] !== '') out[m[1]] = scalar(m[2], no);
      else {
        if (pos >= lines.length || indentOf(lines[pos].raw) <= indent) throw new Error(`line ${no}: key ${m[1]} has no value`);
        out[m[1]] = block(indentOf(lines[pos].raw));
      }
    }
    if (pos < lines.length && indentOf(lines[pos].raw) > indent) throw new Error(`line ${lines[pos].no}: bad indentation`);
    return out;
  };
  const doc = block(0);
  if (pos !== lines.length) throw new Error(`line ${lines[pos].no}: unexpected content`);
  return doc;
}

const COMPOSE = join(REPO, 'docker-compose.yml');

test('docker-compose.yml (static): fixture + proxy services on the fixture image and datasets/proxy/docker.json', () => {
  const doc = parseSimpleYaml(readFileSync(COMPOSE, 'utf8')) as any;
  assert.deepEqual(Object.keys(doc), ['services']);
  const { fixture, proxy } = doc.services;
  assert.ok(fixture && proxy, 'services fixture and proxy');
  // the registry path builds the image (make fixture-image builds it without a registry)
  assert.equal(fixture.build.context, '.');
  assert.ok(existsSync(join(REPO, fixture.build.dockerfile)), `${fixture.build.dockerfile} exists`);
  for (const s of [fixture, proxy]) {
    assert.equal(s.image, 'mcpfixture:local');
    for (const p of s.ports) assert.match(p, /^127\.0\.0\.1:\d+:\d+$/, 'published on loopback only');
  }
  // the fixture serves streamable HTTP on its container port
  assert.deepEqual(fixture.command.slice(0, 3), ['/mcpfixture', '--transport', 'streamable-http']);
  const fixturePort = fixture.environment.PORT;
  assert.equal(fixture.environment.MCP_TRANSPORT, 'streamable-http');
  assert.equal(fixture.ports[0].split(':')[2], fixturePort);
  // the proxy runs the image's `mcpgauge proxy` over a config that exists in the image (/app/datasets)
  assert.equal(proxy.command[0], '/mcpgauge-proxy');
  assert.ok(existsSync(join(REPO, 'docker', 'mcpgauge-proxy')));
  const flag = (name: string) => proxy.command[proxy.command.indexOf(name) + 1];
  const cfgPath = flag('--config');
  assert.match(cfgPath, /^\/app\/datasets\//);
  const local = join(REPO, cfgPath.slice('/app/'.length));
  assert.ok(existsSync(local), `${local} exists`);
  assert.equal(flag('--host'), '0.0.0.0');
  assert.equal(proxy.ports[0].split(':')[2], flag('--port'));
  assert.equal(proxy.depends_on.fixture.condition, 'service_healthy');
  // no fixed default key: unset or empty, the proxy generates a random one and prints it
  assert.equal(proxy.environment.MCPGAUGE_PROXY_API_KEY, '${MCPGAUGE_PROXY_API_KEY:-}');
  assert.ok(/fetch\('http:\/\/127\.0\.0\.1:8092\/healthz'\)/.test(proxy.healthcheck.test.join(' ')));
  // the upstream config reaches the fixture service by name and port
  const cfg = loadProxyConfig(local, {});
  const remote = cfg.servers.find((s) => 'url' in s) as { url: string; transport: string };
  assert.equal(remote.url, `http://fixture:${fixturePort}/mcp`);
  assert.equal(remote.transport, 'streamable-http');
  // in-container stdio upstreams run bundles docker/bundle.mjs makes into /app/.image
  const bundler = readFileSync(join(REPO, 'docker', 'bundle.mjs'), 'utf8');
  for (const s of cfg.servers) {
    if (!('command' in s)) continue;
    for (const a of s.args)
      if (a.startsWith('/app/.image/')) assert.ok(bundler.includes(`'${a.slice('/app/.image/'.length)}'`), `${a} is one of the bundles`);
  }
  const ignore = readFileSync(join(REPO, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim());
  assert.ok(!ignore.includes('datasets') && !ignore.includes('datasets/'), '.dockerignore must not drop datasets/');
});

test('docker-compose.host.yml (static): host network, everything on 127.0.0.1, the proxy reaches the fixture there', () => {
  const doc = parseSimpleYaml(readFileSync(join(REPO, 'docker-compose.host.yml'), 'utf8')) as any;
  const { fixture, proxy } = doc.services;
  for (const s of [fixture, proxy]) {
    assert.equal(s.network_mode, 'host');
    assert.equal(s.ports, undefined, 'a host-network container publishes nothing');
    assert.equal(s.image, 'mcpfixture:local');
  }
  assert.equal(fixture.environment.MCPFIXTURE_HOST, '127.0.0.1');
  const port = fixture.environment.PORT;
  assert.equal(fixture.command[fixture.command.indexOf('--port') + 1], port);
  assert.equal(proxy.command[proxy.command.indexOf('--host') + 1], '127.0.0.1');
  const cfg = loadProxyConfig(join(REPO, proxy.command[proxy.command.indexOf('--config') + 1].slice('/app/'.length)), {});
  assert.equal((cfg.servers.find((s) => 'url' in s) as { url: string }).url, `http://127.0.0.1:${port}/mcp`);
});

test('the YAML-subset reader rejects what it does not understand', () => {
  assert.deepEqual(parseSimpleYaml('a:\n  b: "x"\n  c: [1, "y"]\n  d:\n    - "p"\n    - q\n'), {
    a: { b: 'x', c: [1, 'y'] as never, d: ['p', 'q'] },
  });
  assert.throws(() => parseSimpleYaml('a: &anchor x\n'), /unsupported YAML/);
  assert.throws(() => parseSimpleYaml('a:\n  b: 1\n    c: 2\n'), /expected|indentation/);
  assert.throws(() => parseSimpleYaml('a: 1\na: 2\n'), /duplicate key a/);
});

function composeClient(): string[] | string {
  const tries: string[][] = [['docker', 'compose'], ['docker-compose']];
  const why: string[] = [];
  for (const cmd of tries) {
    const r = spawnSync(cmd[0], [...cmd.slice(1), 'version'], { encoding: 'utf8', timeout: 15_000 });
    if (r.status === 0) return cmd;
    why.push(
      `\`${cmd.join(' ')} version\` ${r.error ? `failed: ${(r.error as NodeJS.ErrnoException).code}` : `exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`}`,
    );
  }
  return why.join('; ');
}

test('docker compose config accepts both compose files (when a compose client is installed)', (t) => {
  const client = composeClient();
  if (typeof client === 'string') {
    // in CI a missing compose client is a failure, not a skip
    assert.notEqual(process.env.CI, 'true', `CI=true but no docker compose client: ${client}`);
    t.skip(`no docker compose client: ${client}`);
    return;
  }
  for (const file of [COMPOSE, join(REPO, 'docker-compose.host.yml')]) {
    const r: { status: number | null; stderr: string } = spawnSync(client[0], [...client.slice(1), '-f', file, 'config', '--quiet'], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, MCPGAUGE_PROXY_API_KEY: 'compose-test' },
    });
    assert.equal(r.status, 0, `${client.join(' ')} -f ${file} config: ${r.stderr}`);
  }
});
