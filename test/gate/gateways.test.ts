/**
 * Real third-party gateways from the npm registry (devDependencies), gated with their presets
 * (datasets/presets): each goes red on its real defects, all in one run, and green on the steps it
 * handles (docs/gateways.md records the evidence). The mcp-proxy and supergateway runs use the
 * example lines of docs/gate.md (test/gate/readme-examples.test.ts checks every gate example line
 * has a runner). One stdio cell each (they
 * front stdio upstreams only), no compliance grading (compliance-step.test.ts covers that step).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertRedExactly, readmeGateExample, runGateCli } from './helpers.ts';
import { npmBin } from '../../pipeline/adapter/preset-file.ts';

const fast = (cfg: any) => {
  delete cfg.compliance;
  cfg.timeouts.recovery_ms = 8000;
};

let tmp = '';
let WRONG_MAP = '';
before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'mcpgauge-gateways-'));
  WRONG_MAP = join(tmp, 'wrong-map.json');
  writeFileSync(WRONG_MAP, JSON.stringify({ 'gate_barrier:echo': 'ping' }));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test('gateways: npm mcp-proxy and supergateway go red on their real defects, all in one run each', { concurrency: 4 }, async (t) => {
  await Promise.all([
    t.test(
      'mcp-proxy (the docs/gate.md example), single-upstream cell: every fault role runs through its one child; never reconnects after the child dies -> crash (kill blocked by it); HTTP cells not applicable',
      async () => {
        const args = readmeGateExample('--preset mcp-proxy');
        const r = await runGateCli(
          [...args, '--cells', 'stdio/2025-11-25,http-stateless/2025-11-25', '--no-fixture-grade'],
          {},
          { patch: fast },
        );
        try {
          assertRedExactly(r, { 'stdio/2025-11-25': 'crash' });
          const na = r.report!.cells.find((c) => c.id === 'http-stateless/2025-11-25')!;
          assert.equal(na.status, 'not_applicable');
          assert.match(na.reason, /fronts stdio upstreams only \(preset mcp-proxy\)/);
          const cell = r.report!.cells.find((c) => c.id === 'stdio/2025-11-25')!;
          const step = (n: string) => cell.steps.find((x) => x.name === n)!;
          for (const s of ['hang', 'isolation', 'meta', 'concurrency', 'cancel'])
            assert.equal(step(s).status, 'pass', `${s}: ${step(s).reason}`);
          assert.equal(step('kill').status, 'blocked');
          assert.match(step('ready').reason, /every role \(main, barrier, hang, crash\) on its one fixture \(gate_main, roles mode\)/);
          // each role credited with the one fixture's own log lines
          assert.match(
            String((step('concurrency').evidence.fixture_lines as string[])[0]),
            /fault mode barrier: releasing 4 waiting .* after 4 arrivals/,
          );
          assert.match(String((step('cancel').evidence.fixture_lines as string[])[0]), /fault mode hang: blocking/);
          assert.match(String((step('crash').evidence.fixture_lines as string[])[0]), /fault mode crash: exiting/);
          assert.match(step('crash').reason, /no reconnect within .*Not connected/);
          // progress reaches the client under its token and a cancel reaches the child, but the call
          // ends at --requestTimeout although progress keeps arriving (allowed: a MAY; docs/gateways.md)
          const progress = step('progress');
          assert.equal(progress.status, 'pass', progress.reason);
          assert.equal(progress.evidence.outcome, 'rpc_error', JSON.stringify(progress.evidence));
          assert.ok((progress.evidence.progress_values as number[]).length >= 2, JSON.stringify(progress.evidence));
        } finally {
          r.cleanup();
        }
      },
    ),
    t.test(
      'mcp-proxy set up the natural way (--proxy-cmd with one {FIXTURE_CMD}, no --fronts): the single upstream is inferred and said in the report; the same verdict as its preset',
      async () => {
        const cmd = `node ${npmBin('mcp-proxy')} --host 127.0.0.1 --port {PORT} --server stream --requestTimeout {CALL_TIMEOUT_MS} -- {FIXTURE_CMD}`;
        const r = await runGateCli(['--proxy-cmd', cmd, '--cells', 'stdio/2025-11-25', '--no-fixture-grade'], {}, { patch: fast });
        try {
          assert.notEqual(r.code, 2, `not a harness error: ${r.stderr.slice(-600)}`);
          assert.match(r.report!.proxy.description, /fronts stdio:1, inferred: the --proxy-cmd template has one \{FIXTURE_CMD\}/);
          assertRedExactly(r, { 'stdio/2025-11-25': 'crash' });
        } finally {
          r.cleanup();
        }
      },
    ),
    t.test(
      "a wrong mapping (the barrier role's calls sent to a tool the fixture does not count): a harness error naming the mapping, exit 2, neither a pass nor a proxy failure",
      async () => {
        const r = await runGateCli(
          ['--preset', 'mcp-proxy', '--cells', 'stdio/2025-11-25', '--no-fixture-grade', '--tool-map', WRONG_MAP],
          {},
          { patch: fast },
        );
        try {
          assert.equal(r.code, 2, r.stderr);
          assert.equal(r.report, undefined, 'no report: nothing of the run is a verdict on the proxy');
          assert.match(
            r.stderr,
            /concurrency: harness error: the barrier role's calls \(gate_barrier:echo -> proxy tool "ping" \(tool map/,
          );
          assert.match(r.stderr, /fixture-main\.log has no line matching .*the mapping of the barrier role onto this proxy is wrong/);
          assert.match(r.stderr, /Fix: .*--tool-map FILE/, 'the error names the flag that fixes it');
          // what the proxy answered to each of the 4 calls, so a run that errs here shows where they went
          assert.match(r.stderr, /the proxy answered call 1: succeeded after \d+ ms: .*; call 4: succeeded after \d+ ms/);
          assert.equal(r.stderr.split('\n').filter((l) => l.startsWith('mcpgauge:')).length, 1, r.stderr); // one error line (beside the progress lines)
        } finally {
          r.cleanup();
        }
      },
    ),
    t.test(
      'supergateway (SSE, its default; the docs/gate.md example), single-upstream cell: no call timeout -> hang, one child shared by every session -> isolation, exits when its child dies -> crash',
      async () => {
        const r = await runGateCli(
          [...readmeGateExample('--preset supergateway'), '--cells', 'stdio/2025-11-25', '--no-fixture-grade'],
          {},
          { patch: fast },
        );
        try {
          assertRedExactly(r, { 'stdio/2025-11-25': ['hang', 'isolation', 'crash'] });
          const cell = r.report!.cells[0];
          for (const s of ['concurrency', 'cancel']) assert.equal(cell.steps.find((x) => x.name === s)!.status, 'pass', s);
          // progress forwarded; the long call completes because supergateway has no call timeout (hang is red)
          const progress = cell.steps.find((x) => x.name === 'progress')!;
          assert.equal(progress.status, 'pass', progress.reason);
          assert.equal(progress.evidence.outcome, 'ok', JSON.stringify(progress.evidence));
          assert.match(r.report!.proxy.description, /--stdio "\{FIXTURE_CMD\}"/);
        } finally {
          r.cleanup();
        }
      },
    ),
    t.test(
      'supergateway --outputTransport streamableHttp --stateful: one stdio child per session, so several hang-fixture processes are alive at cancel time; that is not an orphan (cancel passes, counted against the processes just before the call); red on hang and crash',
      async () => {
        const r = await runGateCli(
          ['--preset', 'supergateway-streamable-http', '--cells', 'stdio/2025-11-25', '--no-fixture-grade'],
          {},
          { patch: fast },
        );
        try {
          assertRedExactly(r, { 'stdio/2025-11-25': ['hang', 'crash'] });
          const cancel = r.report!.cells[0].steps.find((x) => x.name === 'cancel')!;
          assert.equal(cancel.status, 'pass', cancel.reason);
          const before = cancel.evidence.hang_fixture_processes_before as number[] | undefined;
          const after = cancel.evidence.hang_fixture_processes as number[];
          assert.ok(after.length >= 1 && after.length <= Math.max(1, before?.length ?? 1), JSON.stringify(cancel.evidence));
          // the earlier steps' sessions are still open, each with its own child: the case the old "exactly one" rule got wrong
          assert.ok((before?.length ?? 0) > 1, `several children before the call: ${JSON.stringify(cancel.evidence)}`);
          assert.match(cancel.reason, /no more than before the call \(\d+: one per proxy session\), no orphan/);
        } finally {
          r.cleanup();
        }
      },
    ),
  ]);
});
