/**
 * The docker cell on a real Docker engine: the fixture image is built once (make fixture-image's
 * script; up to date = a label check, a few seconds), then the gate runs the docker cell only
 * (required, so a red step is a red gate): green with the reference proxy and no container left;
 * red at exactly the crash step with a proxy that never starts a new container after one exits;
 * red on its container check alone with a proxy that leaves a running container behind at shutdown;
 * SIGINT in the middle of the cell leaves no container of the run behind. The four run at once. No engine: skipped,
 * except under CI=true, where it is a failure.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_IMAGE_ENV, containersWith, fixtureImage, probeDocker, RUN_LABEL } from '../../pipeline/gate/docker.ts';
import { BIN, gatewayCmd, REFERENCE_TEMPLATE, REPO, assertRedExactly, runGateCli, testConfig } from './helpers.ts';

const CELL = 'docker/2025-11-25';
const required = (c: any) => {
  c.cells[CELL].required = true;
};
const probe = await probeDocker();
const noEngine = probe.ok ? false : `no Docker engine: ${probe.error}`;

describe('the docker cell on a real engine', { skip: process.env.CI === 'true' ? false : noEngine, concurrency: 4 }, () => {
  before(() => {
    assert.ok(probe.ok, `CI=true but ${noEngine}`);
    const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'fixture-image.mjs')], { cwd: REPO, encoding: 'utf8', timeout: 600_000 });
    assert.equal(r.status, 0, `make fixture-image: ${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /answered initialize as mcpfixture/);
  });

  test('the reference proxy is green in the docker cell and no container of the run is left', async () => {
    const r = await runGateCli(['--cells', CELL, '--no-fixture-grade'], {}, { patch: required });
    try {
      assertRedExactly(r, {});
      const cell = r.report!.cells[0];
      assert.ok(cell.containers, 'the cell reports its container check');
      assert.deepEqual(cell.containers!.left, []);
      assert.match(cell.reason, /no container labelled mcpgauge\.run=\w+ left/);
      const kill = cell.steps.find((s) => s.name === 'kill')!;
      assert.match(kill.reason, /^docker kill [0-9a-f]{12} .*in a new container [0-9a-f]{12}/);
      const runId = cell.containers!.label.split('=')[1];
      assert.deepEqual(await containersWith({ [RUN_LABEL]: runId }), [], 'docker ps -a shows no container of the run');
    } finally {
      r.cleanup();
    }
  });

  test('a proxy that never starts a new container after one exits -> docker cell red at exactly crash', async () => {
    // the recovery wait is all this case spends on the crash step: a shorter one (the green case keeps the committed one)
    const patch = (c: any) => {
      required(c);
      c.timeouts.recovery_ms = 6000;
      // this case is about crash: the pass-through gateway lists every upstream tool of the docker
      // cell's roles (more than the reference proxy's menu budget, which the green case holds)
      c.budgets.menu_tokens = 4000;
    };
    const r = await runGateCli(
      [
        '--cells',
        CELL,
        '--no-fixture-grade',
        '--proxy-cmd',
        `${gatewayCmd()} --break no-respawn`,
        '--proxy-config-template',
        REFERENCE_TEMPLATE,
      ],
      {},
      { patch },
    );
    try {
      assertRedExactly(r, { [CELL]: 'crash' });
      const cell = r.report!.cells[0];
      assert.deepEqual(cell.containers!.left, [], 'even a red run leaves no container');
    } finally {
      r.cleanup();
    }
  });

  test('a proxy that leaves a running container behind at shutdown -> docker cell red on its container check, and the gate removes it', async () => {
    const r = await runGateCli(
      [
        '--cells',
        CELL,
        '--no-fixture-grade',
        '--proxy-cmd',
        `${gatewayCmd()} --break leak-container`,
        '--proxy-config-template',
        REFERENCE_TEMPLATE,
      ],
      {},
      { patch: (c: any) => (required(c), (c.budgets.menu_tokens = 4000)) },
    );
    try {
      const why = `stdout: ${r.stdout}\nstderr: ${r.stderr.slice(-2000)}`;
      assert.equal(r.code, 1, why);
      const cell = r.report!.cells[0];
      assert.equal(cell.status, 'fail', why);
      const failed = cell.steps.filter((s) => s.status === 'fail').map((s) => `${s.name}: ${s.reason}`);
      assert.deepEqual(failed, [], 'every step passed: the container check alone turns the cell red');
      assert.equal(cell.containers!.left.length, 1, why);
      assert.deepEqual(cell.containers!.removed, cell.containers!.left);
      assert.match(cell.reason, /^1 container\(s\) labelled mcpgauge\.run=\w+ still existed after the teardown/);
      const runId = cell.containers!.label.split('=')[1];
      assert.deepEqual(await containersWith({ [RUN_LABEL]: runId }), [], 'the gate removed the leaked container');
    } finally {
      r.cleanup();
    }
  });

  test('SIGINT during the docker cell: exit 130 and no container of the run left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-gate-test-'));
    // the same image under a tag of its own: this run's containers are told apart from the other cases' by it
    const tag = `mcpfixture:sigint-${process.pid}`;
    assert.equal(spawnSync('docker', ['tag', fixtureImage(), tag]).status, 0);
    try {
      const config = testConfig(dir, required);
      const child = spawn(
        process.execPath,
        [BIN, 'gate', '--config', config, '--out', join(dir, 'out'), '--cells', CELL, '--no-fixture-grade'],
        { cwd: REPO, env: { ...process.env, CI: 'true', [FIXTURE_IMAGE_ENV]: tag, TMPDIR: dir }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      // (TMPDIR: a gate ended by a signal may leave its cell folder behind; this one is removed below)
      // wait until the proxy has started the cell's four fixture containers
      let runIds: string[] = [];
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline && child.exitCode === null) {
        // (an ancestor filter would match the other cases' containers too: same image id)
        const ps = spawnSync('docker', ['ps', '--format', '{{.Image}} {{.Label "mcpgauge.run"}}'], { encoding: 'utf8' });
        const ids = ps.stdout
          .split('\n')
          .filter((l) => l.startsWith(`${tag} `))
          .map((l) => l.split(' ')[1]);
        if (ids.length >= 4) {
          runIds = [...new Set(ids)];
          break;
        }
        await new Promise((r) => setTimeout(r, 300));
      }
      assert.equal(runIds.length, 1, `expected the containers of one run; got ${JSON.stringify(runIds)}; stderr: ${err}`);
      child.kill('SIGINT');
      const code = await exited;
      assert.equal(code, 130, err);
      assert.deepEqual(
        await containersWith({ [RUN_LABEL]: runIds[0] }),
        [],
        `containers of run ${runIds[0]} survived the SIGINT; stderr: ${err}`,
      );
    } finally {
      spawnSync('docker', ['rmi', tag], { stdio: 'ignore' }); // only the tag: the image stays
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
