/**
 * The independent LAP verdict for real: the pinned lap-score venv under .cache/venvs/ (built
 * once by the first run, reused after) runs `lap lint --mcp-url … --json` against the reference
 * proxy on loopback HTTP behind an API key, and the live stage merges it. Also the venv's failure
 * paths with real python (a half-made venv, a stale lock, pip that cannot install), which must
 * leave nothing behind. Skipped only when `python3 -m venv` is unavailable here.
 * The rest of the suite runs with MCPGAUGE_LAP=off (scripts/test.mjs): this file passes its mode.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLive } from '../../pipeline/live/live-stage.ts';
import { lapMode, lapSection, LAP_NO_URL_REASON } from '../../pipeline/live/lap.ts';
import { ensureLapVenv, lapVenvDir, venvReady, findOnPath, LAP_SCORE_REQUIREMENT } from '../../pipeline/live/lap_venv.ts';
import { startProxy } from '../../pipeline/proxy/index.ts';
import { FIXTURE_BIN } from '../../pipeline/fixture/launch.ts';
import type { ProxyConfig } from '../../pipeline/proxy/config.ts';
import { loadProxyConfig } from '../../pipeline/proxy/config.ts';

const python = findOnPath('python3');
const venvCheck = python ? spawnSync(python, ['-c', 'import venv, ensurepip'], { encoding: 'utf8' }) : undefined;
const NO_VENV = !python
  ? 'python3 is not on PATH'
  : venvCheck!.status !== 0
    ? `python3 cannot make a venv with pip: ${venvCheck!.stderr.trim().split('\n').pop()}`
    : false;

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcpgauge-lap-test-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('LAP mode: --no-lap wins, then MCPGAUGE_LAP (off|offline|auto), a bad value is a skip reason', async () => {
  assert.equal(lapMode(undefined, {}), 'auto');
  assert.equal(lapMode(undefined, { MCPGAUGE_LAP: 'offline' }), 'offline');
  assert.equal(lapMode('off', { MCPGAUGE_LAP: 'auto' }), 'off');
  assert.deepEqual(lapMode(undefined, { MCPGAUGE_LAP: 'nope' }), { bad: 'nope' });
  // a stdio target has no URL: said before any venv is looked at
  assert.deepEqual(await lapSection({ mode: 'auto', inHouseMenuTokens: 10, target: { kind: 'stdio', command: 'x' } }), {
    executed: false,
    skip_reason: LAP_NO_URL_REASON,
  });
  // offline + a venv root that has no venv: named, nothing installed
  const root = join(dir, 'offline-root');
  const r = await lapSection({ mode: 'offline', inHouseMenuTokens: 10, httpUrl: 'http://127.0.0.1:9/mcp', venv: { root } });
  assert.equal(
    r.skip_reason,
    `skipped: the ${LAP_SCORE_REQUIREMENT} venv is not built (${lapVenvDir(root)}) and MCPGAUGE_LAP=offline forbids installing it`,
  );
  assert.equal(existsSync(root), false);
  const missing = await ensureLapVenv({ root, python: join(dir, 'no-python3') });
  assert.equal(missing.ok, false);
  assert.match((missing as { reason: string }).reason, /^skipped: .*no-python3 cannot make a venv with pip \(ENOENT\)$/);
});

test('venv failure paths with real python: a half-made venv is not ready, a stale lock is taken over, pip that cannot install leaves nothing', {
  skip: NO_VENV,
}, async () => {
  const root = join(dir, 'fail-root');
  const half = lapVenvDir(root);
  mkdirSync(join(half, 'bin'), { recursive: true });
  writeFileSync(join(half, 'bin', 'python'), '');
  assert.equal(venvReady(half), false, 'no READY marker: never taken as ready');
  // a lock left by a builder that died
  const dead = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => dead.once('exit', r));
  writeFileSync(join(root, '.lap-score-0.8.0.lock'), String(dead.pid));
  const lines: string[] = [];
  // pip with no index at all: the same failure as an unreachable PyPI, without traffic
  const r = await ensureLapVenv({
    root,
    log: (l) => lines.push(l),
    env: { ...process.env, PIP_NO_INDEX: '1', PIP_FIND_LINKS: '', PIP_INDEX_URL: 'http://127.0.0.1:9/simple' },
  });
  assert.equal(r.ok, false);
  assert.match(
    (r as { reason: string }).reason,
    /^skipped: pip could not install lap-score\[mcp\]==0\.8\.0 \(PyPI unreachable\? set MCPGAUGE_LAP=off or offline\): /,
  );
  assert.ok(
    lines.some((l) => l.includes('building')),
    lines.join(' | '),
  );
  assert.deepEqual(readdirSync(root), [], 'no lock, no temp venv, and the half-made venv removed');
});

test('the pinned lap-score runs against the reference proxy over HTTP (API key via a loopback forwarder) and is merged', {
  skip: NO_VENV,
  timeout: 300_000,
}, async () => {
  const t0 = Date.now();
  const v = await ensureLapVenv({ log: (l) => console.log(l) });
  assert.ok(v.ok, (v as { reason?: string }).reason);
  assert.ok(venvReady(lapVenvDir()));
  console.log(`lap venv ${v.built ? 'built' : 'reused'} in ${Date.now() - t0} ms`);

  const KEY = 'canary-lap-key-3f9a1c';
  const cfgFile = join(dir, 'proxy.json');
  writeFileSync(
    cfgFile,
    JSON.stringify({
      servers: [{ name: 'fixture', command: process.execPath, args: [FIXTURE_BIN, '--transport', 'stdio'] }],
      listen: { host: '127.0.0.1', port: 0 },
      api_key: KEY,
    }),
  );
  const config: ProxyConfig = loadProxyConfig(cfgFile);
  const proxy = await startProxy(config, { transport: 'http', port: 0, log: () => {} });
  try {
    const lines: string[] = [];
    const live = await runLive({
      proxyUrl: proxy.url,
      apiKey: KEY,
      noGolden: true,
      runs: 1,
      warmup: 0,
      tokenizers: ['cl100k_base'],
      lap: 'auto',
      log: (l) => lines.push(l),
    });
    const lap = live.lap;
    assert.equal(lap.executed, true, lap.skip_reason);
    assert.match(lap.grade!, /^[A-F]$/);
    assert.equal(lap.version, 'lap-score 0.8.0');
    assert.ok(lap.menu_tokens! > 0);
    const ours = live.menus.find((m) => m.tokenizer === 'cl100k_base')!.proxy_menu_tokens.value;
    assert.equal(lap.in_house_menu_tokens, ours);
    assert.equal(lap.divergence_pct, Math.round(((100 * (lap.menu_tokens! - ours)) / ours) * 100) / 100);
    // LAP frames the menu as JSON of {name, description, input_schema}: more tokens than our rendering
    assert.ok(lap.menu_tokens! > ours, `${lap.menu_tokens} vs ${ours}`);
    // a divergence beyond ±15% is a warning on live.lap (shown as one), never an error row
    if (Math.abs(lap.divergence_pct!) > 15) assert.match(lap.warning ?? '', /LAP counts/);
    assert.ok(!live.errors.some((e) => e.where === 'lap'), 'LAP is not an error row');
    const text = JSON.stringify(live) + lines.join('\n');
    assert.ok(!text.includes(KEY), 'the API key never reaches the report or the log');
    assert.ok(
      lines.some((l) => /LAP: lap-score 0\.8\.0 lint --mcp-url http:\/\/127\.0\.0\.1:\d+\/mcp --json/.test(l)),
      lines.join(' | '),
    );
    console.log(`reference proxy: in-house ${ours} vs LAP ${lap.menu_tokens} menu tokens (${lap.divergence_pct}%), grade ${lap.grade}`);
  } finally {
    await proxy.close();
  }
});
