/**
 * The gate held to its own promises (issue 18), each row reproduced on the real CLI:
 * leaked environment, unbounded logs, a loaded-but-alive proxy told apart from one that exited,
 * progress without a TTY, and the exit-code contract of gate, diff, bench and `make gate`
 * (0 ran and passed, 1 ran and found a failure, 2 could not run as asked).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO, runGateCli, testConfig } from './helpers.ts';
import { resolveJobs } from '../../pipeline/gate/matrix.ts';
import { readyDeadlineMs } from '../../pipeline/gate/steps/ready.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
  cwd = REPO,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      cmd,
      args,
      { cwd, env: { ...process.env, CI: 'true', ...env }, timeout: 300_000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? null) : 0;
        done({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}
const cli = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [BIN, ...args], env);
/** stderr lines that are errors (progress lines start with "[gate ") */
const errorLines = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((l) => l && !l.startsWith('[gate '));

const CANARY_GH = 'ghp_canaryGateEnv0123456789';
const CANARY_PASSED = 'passed-secret-canary-98765';

describe('issue 18 rows', { concurrency: 2 }, () => {
  test('a proxy that prints its environment and floods its output: no canary in any artifact, the log capped, alive-but-not-ready with evidence, a progress line per cell', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-gate-rg-'));
    try {
      const script = join(dir, 'flood.mjs');
      // prints its whole environment (the template mistake that ran /usr/bin/env), then floods, never listens
      writeFileSync(
        script,
        [
          'for (const [k, v] of Object.entries(process.env)) process.stdout.write(`${k}=${v}\\n`);',
          'process.stdout.write(`bare value: ${process.env.MY_SERVICE_TOKEN}\\n`);',
          "const line = 'y'.repeat(200) + '\\n';",
          'const more = () => { while (process.stdout.write(line)) {} process.stdout.once("drain", more); };',
          'more();',
        ].join('\n'),
      );
      const r = await runGateCli(
        [
          '--cells',
          'stdio/2025-11-25',
          '--no-fixture-grade',
          '--proxy-cmd',
          `node ${script} --port {PORT}`,
          '--pass-env',
          'MY_SERVICE_TOKEN',
          '--pass-env',
          'MY_PLAIN',
        ],
        { GITHUB_TOKEN: CANARY_GH, MY_SERVICE_TOKEN: CANARY_PASSED, MY_PLAIN: 'plain-value-visible' },
        {
          patch: (c) => {
            c.timeouts.ready_ms = 4000;
            c.log_cap_bytes = 65536;
          },
        },
      );
      try {
        assert.equal(r.code, 1, r.stderr);
        const cell = r.report!.cells[0];
        const ready = cell.steps.find((s) => s.name === 'ready')!;
        assert.equal(ready.status, 'fail');
        assert.match(ready.reason, /alive but not ready within \d+ ms: .*nothing listening on its port/);
        assert.equal(ready.evidence.alive, true);
        assert.equal(ready.evidence.listening, false);
        assert.ok((ready.evidence.last_log_lines as string[]).length > 0);
        // the deadline scales with the fixture start-up the preflight measured on this (maybe loaded) machine
        assert.equal(ready.evidence.deadline_ms, readyDeadlineMs(4000, r.report!.timing.fixture_start_ms));
        assert.ok((r.report!.timing.fixture_start_ms ?? 0) > 0);
        assert.equal(readyDeadlineMs(4000, 1000), 10_000);
        assert.equal(readyDeadlineMs(30_000, 300), 30_000);
        assert.ok(ready.evidence.proxy_log_cut, `the cut is in the step evidence: ${JSON.stringify(ready.evidence)}`);
        const log = join(r.out, 'logs', 'stdio_2025-11-25', 'attempt-1', 'proxy.log');
        const text = readFileSync(log, 'utf8');
        assert.ok(statSync(log).size < 65536 + 1024, `proxy.log is ${statSync(log).size} bytes`);
        assert.match(text, /bytes of output cut here \(log cap 65536 bytes/);
        // the allow-list: PATH and the passed plain variable reach the proxy, the gate's token does not
        assert.match(text, /^PATH=/m);
        assert.match(text, /^MY_PLAIN=plain-value-visible$/m);
        assert.match(text, /^MY_SERVICE_TOKEN=\[redacted\]$/m);
        assert.match(text, /^bare value: \[redacted\]$/m);
        assert.doesNotMatch(text, /GITHUB_TOKEN/);
        for (const f of filesUnder(r.out)) {
          const bytes = readFileSync(f);
          for (const c of [CANARY_GH, CANARY_PASSED]) assert.equal(bytes.includes(c), false, `${f} contains ${c}`);
        }
        // progress without a TTY: one line per finished cell on stderr
        assert.match(r.stderr, /\[gate [\d:]+\] stdio\/2025-11-25: FAIL in [\d.]+ s at ready: alive but not ready/);
      } finally {
        r.cleanup();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a proxy that exits at once is "exited", not "slow"; `make gate` passes 1 through (and 0, and 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-gate-rg-'));
    try {
      const script = join(dir, 'exit.mjs');
      writeFileSync(script, "console.error('boom: cannot bind the port'); process.exit(3);\n");
      const cfg = testConfig(dir);
      const out = join(dir, 'out');
      const args = `--config ${cfg} --out ${out} --cells stdio/2025-11-25 --no-fixture-grade --proxy-cmd 'node ${script} {PORT}'`;
      const red = await run('make', ['-s', 'gate', `ARGS=${args}`]);
      assert.equal(red.code, 1, red.stderr);
      const report = JSON.parse(readFileSync(join(out, 'gate-report.json'), 'utf8'));
      const ready = report.cells[0].steps[0];
      assert.equal(ready.status, 'fail');
      assert.match(ready.reason, /the proxy exited before it was ready \(code 3, signal null\).*last logged: boom: cannot bind the port/);
      assert.doesNotMatch(ready.reason, /alive but not ready/);
      assert.equal(ready.evidence.alive, false);
      const [help, unusable] = await Promise.all([
        run('make', ['-s', 'gate', 'ARGS=--help']),
        run('make', ['-s', 'gate', `ARGS=--config ${cfg} --out /proc/gateout`]),
      ]);
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stderr, /--pass-env/);
      assert.equal(unusable.code, 2, unusable.stderr);
      assert.match(unusable.stderr, /--out \/proc\/gateout: a special file system/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('gate: could not run as asked = exit 2, one line, before anything starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-gate-rg-'));
    try {
      // the docker cell required: a selection of only it is a gate (an all-optional one is refused earlier, test/hostile/gate-verdicts)
      const cfg = testConfig(dir, (c) => (c.cells['docker/2025-11-25'].required = true));
      const file = join(dir, 'a-file');
      writeFileSync(file, 'x');
      const noexec = join(dir, 'noexec.sh');
      writeFileSync(noexec, '#!/bin/sh\n');
      chmodSync(noexec, 0o644);
      const base = ['gate', '--config', cfg, '--no-fixture-grade'];
      const out = join(dir, 'out');
      const cases: [string[], RegExp, Record<string, string>?][] = [
        [['--out', '/proc/gateout', '--cells', 'stdio/2025-11-25'], /--out \/proc\/gateout: a special file system/],
        [['--out', join(file, 'sub'), '--cells', 'stdio/2025-11-25'], /a-file is not a folder/],
        // an engine that does not answer (CI starts a real one: point this case away from it)
        [
          ['--out', out, '--cells', 'docker/2025-11-25', '--jobs', '0'],
          /nothing evaluated: no selected cell can run \(docker\/2025-11-25 skipped: /,
          { DOCKER_HOST: 'unix:///nonexistent-mcpgauge/docker.sock' },
        ],
        [
          ['--out', out, '--cells', 'stdio/2025-11-25', '--proxy-cmd', 'no-such-binary-mcpg --port {PORT}'],
          /--proxy-cmd: cannot start "no-such-binary-mcpg": ENOENT/,
        ],
        [['--out', out, '--cells', 'stdio/2025-11-25', '--proxy-cmd', `${noexec} --port {PORT}`], /cannot start ".*noexec\.sh": EACCES/],
        [
          [
            '--out',
            out,
            '--cells',
            'stdio/2025-11-25',
            '--proxy-cmd',
            'MCPGAUGE_PROXY_API_KEY={API_KEY} node {MCPGAUGE} proxy --config {CONFIG_FILE}',
          ],
          /\{CONFIG_FILE\} needs --proxy-config-template FILE/,
        ],
        [['--out', out, '--cells', 'stdio/2025-11-25', '--proxy-cmd', 'node x.js {PORTT}'], /unknown placeholder \{PORTT\}/],
        [['--out', out, '--jobs', '-1'], /--jobs must be an integer >= 0/],
        [['--out', out, '--pass-env', 'NOT_SET_ANYWHERE_18'], /--pass-env NOT_SET_ANYWHERE_18: not set/],
      ];
      const results = await Promise.all(cases.map(([a, , env]) => cli([...base, ...a], env)));
      results.forEach((r, i) => {
        const [a, re] = cases[i];
        assert.equal(r.code, 2, `${a.join(' ')}: ${r.stderr}`);
        const lines = errorLines(r.stderr);
        assert.equal(lines.length, 1, `${a.join(' ')}: ${r.stderr}`);
        assert.match(lines[0], re);
        assert.doesNotMatch(r.stderr, /--jobs must/.test(lines[0]) ? /^$/ : /--jobs/, '--jobs 0 is accepted');
      });
      assert.deepEqual(readdirSync(dir).sort(), ['a-file', 'gate.config.json', 'noexec.sh'], 'nothing written');
      // a usage error commander reports is exit 2 too, for gate, diff and bench: one line + a pointer to --help, never the help itself
      const usage = await Promise.all([cli([...base, '--bogus-flag']), cli(['diff', 'only-one.json']), cli(['bench', '--bogus-flag'])]);
      for (const u of usage) {
        assert.equal(u.code, 2, u.stderr);
        assert.match(
          u.stderr,
          /^mcpgauge (gate|diff|bench): (unknown option '--bogus-flag'|missing required argument 'new')\nRun "mcpgauge (gate|diff|bench) --help" for usage\.\n$/,
        );
      }
      // --jobs 0 = the number of cores, as --help says
      assert.equal(resolveJobs(0, 3, 7), 7);
      assert.equal(resolveJobs(undefined, 0, 7), 7);
      assert.equal(resolveJobs(2, 0, 7), 2);
      const help = await cli(['gate', '--help']);
      assert.match(help.stdout, /0 =\s+number of cores/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('diff and bench: a missing file, truncated JSON, a gate report, bad flags = exit 2 with one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-gate-rg-'));
    try {
      const truncated = join(dir, 'truncated.json');
      writeFileSync(truncated, '{"report_version": 1, "corpora": [');
      const gateReport = join(dir, 'gate-report.json');
      writeFileSync(gateReport, JSON.stringify({ schema_version: 1, tool: 'mcpgauge gate', verdict: 'pass', cells: [] }));
      const cases: [string[], RegExp][] = [
        [['diff', join(dir, 'missing.json'), truncated], /missing\.json: cannot read file \(ENOENT\)/],
        [['diff', truncated, truncated], /truncated\.json: malformed JSON/],
        [['diff', gateReport, gateReport], /gate-report\.json: this is a gate report/],
        [['bench', '--out', join(dir, 'b'), '--bootstrap', 'abc'], /--bootstrap must be an integer/],
        [['bench', '--out', join(dir, 'b'), '--corpus', join(dir, 'missing.json')], /missing\.json/],
      ];
      const results = await Promise.all(cases.map(([a]) => cli(a)));
      results.forEach((r, i) => {
        const [a, re] = cases[i];
        assert.equal(r.code, 2, `${a.join(' ')}: ${r.stderr}`);
        const lines = r.stderr
          .trim()
          .split('\n')
          .filter((l) => /^(mcpgauge: |error: )/.test(l));
        assert.equal(lines.length, 1, `${a.join(' ')}: ${r.stderr}`);
        assert.match(lines[0], re);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
