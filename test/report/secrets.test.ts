/**
 * Secrets never reach a written artifact: a canary API key (and credential-shaped words inside
 * --proxy-cmd) go through a real `bench --live` run against a real proxy, then every output file
 * (report.json, tables/*.arrow|parquet, dashboard.html) is grepped for them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redactArgv, redactText } from '../../pipeline/util/redact.ts';
import { unpackRows } from '../../pipeline/report/pack.ts';
import { startProxy, validateProxyConfig } from '../../pipeline/proxy/index.ts';
import { fixtureServer, MCPGAUGE_BIN, tempDir } from '../proxy/helpers.ts';

function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MCPGAUGE_BIN, ...args],
      { env: { ...process.env, ...env }, timeout: 240_000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function assertNoCanary(dir: string, canaries: string[]): void {
  const files = filesUnder(dir);
  assert.ok(
    files.some((f) => f.endsWith('report.json')) &&
      files.some((f) => f.endsWith('dashboard.html')) &&
      files.some((f) => f.endsWith('.parquet')),
    files.join(', '),
  );
  for (const f of files) {
    const bytes = readFileSync(f);
    for (const c of canaries) assert.equal(bytes.includes(c), false, `${f} contains the secret ${c}`);
    if (!f.endsWith('.html')) continue;
    // rows the dashboard draws on demand travel packed (gzip, base64): read them unpacked too
    const packed = [...bytes.toString('utf8').matchAll(/<script type="[^"]+" id="[\w-]+-rows">([^<]*)<\/script>/g)]
      .map((m) => JSON.stringify(unpackRows(m[1])))
      .join('\n');
    for (const c of canaries) assert.equal(packed.includes(c), false, `${f} (rows drawn on demand) contains the secret ${c}`);
  }
}

const LIVE_ARGS = [
  '--live',
  '--no-offline',
  '--live-queries',
  '2',
  '--runs',
  '1',
  '--warmup',
  '0',
  '--bootstrap',
  '10',
  '--ready-timeout',
  '1',
  '--tokenizers',
  'cl100k_base',
  '--connect-timeout',
  '120000',
];

test('redactArgv: secret flags, header flags and credential-shaped words lose their values', () => {
  const argv = redactArgv([
    'bench',
    '--api-key',
    'k-123456',
    '--api-key=k-654321',
    '-H',
    'Authorization: Bearer abcdef12',
    '--proxy-cmd',
    'MCPGAUGE_PROXY_API_KEY=s3cr3t-word GITHUB_TOKEN=ghp_xyz node p.mjs --api-key inner-key-1 --token=tok-999',
    '--proxy-url',
    'http://user:pa55word@127.0.0.1:9/mcp?api_key=zzz999',
  ]);
  const text = argv.join(' ');
  for (const s of ['k-123456', 'k-654321', 'abcdef12', 's3cr3t-word', 'ghp_xyz', 'inner-key-1', 'tok-999', 'pa55word', 'zzz999']) {
    assert.equal(text.includes(s), false, `${s} survived in ${text}`);
  }
  // the flags and the rest of the command stay readable
  assert.deepEqual(argv.slice(0, 5), ['bench', '--api-key', '[redacted]', '--api-key=[redacted]', '-H']);
  assert.equal(argv[5], 'Authorization: [redacted]');
  assert.match(
    argv[7],
    /^MCPGAUGE_PROXY_API_KEY=\[redacted\] GITHUB_TOKEN=\[redacted\] node p\.mjs --api-key \[redacted\] --token=\[redacted\]$/,
  );
  assert.equal(redactText('plain words stay: limit=10 query=files'), 'plain words stay: limit=10 query=files');
  assert.equal(redactText('echo the key abcd1234 here', ['abcd1234']), 'echo the key [redacted] here');
});

test('canary: --api-key and --api-key-env values appear in no output file; the key still reaches the proxy', async () => {
  const t = tempDir('secrets');
  const key = 'CANARY-key-5f0e3a9c1d';
  const proxy = await startProxy(validateProxyConfig({ servers: [fixtureServer()], connect_timeout_ms: 120_000 }, 'canary.json'), {
    transport: 'http',
    port: 0,
    apiKey: key,
    log: () => {},
  });
  try {
    const out1 = join(t.dir, 'out-flag');
    const r1 = await runCli(['bench', '--out', out1, ...LIVE_ARGS, '--proxy-url', proxy.url, '--api-key', key]);
    assert.equal(r1.code, 0, r1.stderr);
    assertNoCanary(out1, [key]);
    const report = JSON.parse(readFileSync(join(out1, 'report.json'), 'utf8'));
    assert.ok(report.meta.command_line.includes('--api-key'), 'the flag itself is kept');
    assert.ok(report.live.menus[0].proxy_tool_count === 4, 'the key reached the proxy (it listed its tools)');

    const out2 = join(t.dir, 'out-env');
    const r2 = await runCli(['bench', '--out', out2, ...LIVE_ARGS, '--proxy-url', proxy.url, '--api-key-env', 'MY_PROXY_KEY'], {
      MY_PROXY_KEY: key,
    });
    assert.equal(r2.code, 0, r2.stderr);
    assertNoCanary(out2, [key]);
    const r3 = await runCli([
      'bench',
      '--out',
      join(t.dir, 'out-unset'),
      ...LIVE_ARGS,
      '--proxy-url',
      proxy.url,
      '--api-key-env',
      'MCPGAUGE_UNSET_VAR_X',
    ]);
    assert.equal(r3.code, 2, 'could not run as asked');
    assert.match(r3.stderr, /--api-key-env MCPGAUGE_UNSET_VAR_X: the environment variable is not set/);
  } finally {
    await proxy.close();
    t.cleanup();
  }
});

test('canary: credential-shaped words inside --proxy-cmd appear in no output file', async () => {
  const t = tempDir('secrets-cmd');
  const cfg = t.write('proxy.json', { servers: [fixtureServer()], connect_timeout_ms: 120_000 });
  const canaries = ['CANARY-env-77aa31', 'CANARY-flag-99bb42'];
  try {
    const cmd = `SOME_SERVICE_TOKEN=${canaries[0]} node ${MCPGAUGE_BIN} proxy --config ${cfg} --transport stdio --api-key ${canaries[1]}`;
    const out = join(t.dir, 'out');
    const r = await runCli(['bench', '--out', out, ...LIVE_ARGS, '--proxy-cmd', cmd]);
    assert.equal(r.code, 0, r.stderr);
    assertNoCanary(out, canaries);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    assert.match(report.live.target.description, /SOME_SERVICE_TOKEN=\[redacted\] node /);
  } finally {
    t.cleanup();
  }
});
