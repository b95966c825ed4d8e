/**
 * The compose substrate on a real Docker engine: `scripts/bench-discovery.mjs --substrate compose`
 * (what `make bench-discovery ARGS="--substrate compose"` runs) boots fixture + reference proxy
 * with a compose client, waits for both health checks, measures the proxy in the container with
 * the live stage, and tears everything down; also when the measurement fails after the boot.
 * No engine or no compose client: skipped, except under CI=true, where it is a failure.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { probeDocker } from '../../pipeline/gate/docker.ts';
// @ts-expect-error: a plain .mjs script module without types
import { composeClient } from '../../scripts/lib/compose.mjs';

const REPO = resolve(import.meta.dirname, '..', '..');
const probe = await probeDocker();
const client = probe.ok ? (composeClient() as string[] | null) : null;
const missing = !probe.ok ? `no Docker engine: ${probe.error}` : !client ? 'no docker compose client' : false;

function run(args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(REPO, 'scripts', 'bench-discovery.mjs'), ...args],
      { cwd: REPO, timeout: 600_000, maxBuffer: 32 << 20 },
      (e, stdout, stderr) => {
        done({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

function projectFrom(stderr: string): string {
  const m = /containers of project (mcpgauge-[0-9a-f]+) left: (\d+)/.exec(stderr);
  assert.ok(m, `no teardown line: ${stderr.slice(-1500)}`);
  assert.equal(m![2], '0', 'the teardown left containers');
  return m![1];
}

function noContainers(project: string): void {
  const ps = spawnSync('docker', ['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`], { encoding: 'utf8' });
  assert.equal(ps.stdout.trim(), '', `containers of ${project} are left`);
}

describe('bench-discovery --substrate compose', { skip: process.env.CI === 'true' ? false : missing }, () => {
  test('boots fixture + proxy, waits for both health checks, measures the proxy in the container, tears down', async () => {
    assert.equal(missing, false, `CI=true but ${missing}`);
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-compose-test-'));
    try {
      const r = await run(['--substrate', 'compose', '--no-offline', '--out', dir, '--runs', '1', '--warmup', '0', '--live-queries', '20']);
      assert.equal(r.code, 0, r.stderr.slice(-3000));
      assert.match(r.stderr, /\[compose\] both healthy after \d+ ms: \S+fixture\S*=healthy \S+proxy\S*=healthy/);
      noContainers(projectFrom(r.stderr));
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      assert.ok(report.live, 'the report has the live stage');
      assert.match(JSON.stringify(report.live.target), /127\.0\.0\.1:(18092|8092)/, 'measured the proxy published by compose');
      assert.equal(report.live.style, 'discovery');
      assert.ok(existsSync(join(dir, 'dashboard.html')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a measurement that fails after the boot still tears everything down', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-compose-test-'));
    try {
      const r = await run(['--substrate', 'compose', '--no-offline', '--out', dir, '--runs', 'not-a-number']);
      assert.notEqual(r.code, 0, r.stderr.slice(-3000)); // the bench's own exit code for a bad flag
      assert.match(r.stderr, /both healthy/);
      noContainers(projectFrom(r.stderr));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
