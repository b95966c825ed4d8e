/** Run `mcpgauge gate` as a real child process against a test config; read back what it wrote. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GateReport } from '../../pipeline/gate/report.ts';
import { splitCommandLine } from '../../pipeline/adapter/index.ts';
import { scriptCommand } from '../script-args.ts';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const BIN = join(REPO, 'bin', 'mcpgauge.mjs');
/** the planted-bug pass-through gateway (test/gate/gateway.ts) as a --proxy-cmd template (bundled once per test process) */
export const gatewayCmd = (): string => `${scriptCommand(join(REPO, 'test', 'gate', 'gateway.ts'))} --config {CONFIG_FILE} --port {PORT}`;
export const REFERENCE_TEMPLATE = join(REPO, 'datasets', 'gate', 'reference-proxy.json');

/** The page of the gate's user documentation, whose "## Examples" sh block every example test reads. */
export const GATE_DOC = join(REPO, 'docs', 'gate.md');

/** The `make gate ARGS="…"` example lines of docs/gate.md's "## Examples" section (its first sh block), as written. */
export function readmeGateExamples(): string[] {
  const doc = readFileSync(GATE_DOC, 'utf8');
  const at = doc.indexOf('\n## Examples\n');
  assert.ok(at >= 0, 'docs/gate.md has a "## Examples" section');
  const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(at));
  assert.ok(block, 'docs/gate.md "## Examples" has a sh block of examples');
  return block![1].split('\n').filter((l) => l.startsWith('make gate'));
}

/** The gate arguments of one docs/gate.md example: the ARGS="…" words (shell quoting), [] for a bare `make gate`. */
export function gateArgsOf(line: string): string[] {
  const m = /ARGS="([^"]*)"/.exec(line);
  return m ? splitCommandLine(m[1]) : [];
}

/** The docs/gate.md example that starts with `make gate ARGS="<prefix>` (exactly one). */
export function readmeGateExample(prefix: string): string[] {
  const lines = readmeGateExamples().filter((l) => l.startsWith(`make gate ARGS="${prefix}`));
  assert.equal(lines.length, 1, `docs/gate.md "## Examples" shows one example starting with ${prefix}`);
  return gateArgsOf(lines[0]);
}

/** gate.config.json with test overrides (no retry by default, so a red step shows on the first attempt). */
export function testConfig(dir: string, patch: (c: any) => void = () => {}): string {
  const c = JSON.parse(readFileSync(join(REPO, 'gate.config.json'), 'utf8'));
  delete c.$schema;
  c.retries = 0;
  // the machine running the suite may be loaded: generous start-up deadlines (they bound waits, they measure nothing)
  c.timeouts.ready_ms = 90_000;
  c.timeouts.cell_ms = 300_000;
  c.proxy.config_template = REFERENCE_TEMPLATE;
  patch(c);
  const p = join(dir, 'gate.config.json');
  writeFileSync(p, JSON.stringify(c, null, 2));
  return p;
}

export interface GateRunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  out: string;
  report?: GateReport;
}

export async function runGateCli(
  args: string[],
  env: Record<string, string> = {},
  opts: { patch?: (c: any) => void; config?: string } = {},
): Promise<GateRunResult & { cleanup(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-gate-test-'));
  const config = opts.config ?? testConfig(dir, opts.patch);
  const out = join(dir, 'out');
  const res = await new Promise<GateRunResult>((done) => {
    execFile(
      process.execPath,
      [BIN, 'gate', '--config', config, '--out', out, '--jobs', '2', ...args],
      { cwd: REPO, env: { ...process.env, CI: 'true', ...env }, timeout: 400_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? null) : 0;
        done({ code: typeof code === 'number' ? code : null, stdout, stderr, out });
      },
    );
  });
  const rp = join(out, 'gate-report.json');
  if (existsSync(rp)) res.report = JSON.parse(readFileSync(rp, 'utf8')) as GateReport;
  return { ...res, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Exactly the cells in `red` failed, each at exactly its step(s); every step that needs a red
 * step (directly or through a blocked one, steps/index.ts) is blocked, every other step passed or
 * did not apply; every other cell passed.
 */
export function assertRedExactly(r: GateRunResult, red: Record<string, string | string[]>): void {
  const why = `stdout: ${r.stdout}\nstderr: ${r.stderr.slice(-2000)}`;
  assert.ok(r.report, `no report written; ${why}`);
  const report = r.report!;
  const expectRed = Object.keys(red).length > 0;
  assert.equal(r.code, expectRed ? 1 : 0, why);
  assert.equal(report.verdict, expectRed ? 'fail' : 'pass', why);
  const needs = new Map(report.steps.map((s) => [s.name, s.needs ?? []]));
  for (const c of report.cells) {
    const want = red[c.id];
    const table = c.steps.map((s) => `${s.name}=${s.status}${s.status === 'fail' ? ` (${s.reason})` : ''}`).join(', ');
    if (want === undefined) {
      assert.ok(c.status === 'pass' || c.status === 'not_applicable', `${c.id} should pass: ${table}`);
      continue;
    }
    const reds = new Set(Array.isArray(want) ? want : [want]);
    assert.equal(c.status, 'fail', `${c.id} should fail at ${[...reds].join(', ')}: ${table}`);
    const blocked = new Set<string>();
    let proxyGone = false;
    for (const s of c.steps) {
      if (proxyGone) {
        assert.equal(s.status, 'blocked', `${c.id}: ${s.name} after the proxy exited should be blocked: ${table}`);
        continue;
      }
      if (reds.has(s.name)) {
        assert.equal(s.status, 'fail', `${c.id}: ${s.name} should fail: ${table}`);
        assert.ok(s.logs && s.logs.length > 0, 'a failing step links the cell logs');
        if (s.evidence.exit) proxyGone = true; // nothing is left to test after the proxy exited
        continue;
      }
      if ((needs.get(s.name) ?? []).some((n) => reds.has(n) || blocked.has(n))) {
        blocked.add(s.name);
        assert.equal(s.status, 'blocked', `${c.id}: ${s.name} needs a red step and should be blocked: ${table}`);
      } else
        assert.ok(
          ['pass', 'not_applicable', 'skipped'].includes(s.status),
          `${c.id}: ${s.name} is independent of ${[...reds].join(', ')} and should pass: ${table}`,
        );
    }
    for (const n of reds)
      assert.ok(
        c.steps.some((s) => s.name === n),
        `no step ${n}`,
      );
  }
  assert.deepEqual(report.cells.map((c) => c.id).sort(), [...new Set([...report.options.cells])].sort());
}

/** The test-only sabotage switch of the reference proxy (pipeline/gate/README.md). */
export const SABOTAGE = 'MCPGAUGE_PROXY_SABOTAGE';
/** Flags that gate the planted-bug pass-through gateway (test/gate/gateway.ts), optionally with one bug. */
export const gateway = (brk?: string) => [
  '--proxy-cmd',
  brk ? `${gatewayCmd()} --break ${brk}` : gatewayCmd(),
  '--proxy-config-template',
  REFERENCE_TEMPLATE,
];

/** One sabotage case: which cells run, and exactly which step of which cell must be red. */
export interface SabotageCase {
  name: string;
  cells: string[];
  args?: string[];
  env?: Record<string, string>;
  red: Record<string, string | string[]>;
  /** grade the fixture itself too (once per gate run; the other cases skip it to save time) */
  fixtureGrade?: boolean;
  /** a reason to skip the case on this machine (e.g. the network cells without Go) */
  skip?: string;
  /** further config overrides of this case */
  patch?: (cfg: any) => void;
}

/** the describe options of a sabotage file: two gate runs at a time */
export const SABOTAGE_SUITE = { concurrency: 2 } as const;

/**
 * Each case as its own gate run, asserted red exactly where it says; call it inside the test
 * file's own `describe(title, SABOTAGE_SUITE, () => sabotageCases(CASES))`, so the suite is the
 * file's (make test's slowest-files list names the file, not this helper).
 */
export function sabotageCases(cases: readonly SabotageCase[]): void {
  for (const c of cases) {
    test(c.name, { skip: c.skip }, async () => {
      // the red cases leave the compliance step out (its own tests: compliance-step.test.ts): every
      // independent step runs now, and grading each sabotaged proxy would only add time
      const patch = (cfg: any) => {
        if (Object.keys(c.red).length) delete cfg.compliance;
        c.patch?.(cfg);
      };
      const r = await runGateCli(
        ['--cells', c.cells.join(','), ...(c.args ?? []), ...(c.fixtureGrade ? [] : ['--no-fixture-grade'])],
        c.env ?? {},
        { patch },
      );
      try {
        assertRedExactly(r, c.red);
        if (c.fixtureGrade) {
          const y = r.report!.fixture_compliance!;
          assert.equal(y.status, 'pass', y.reason);
          assert.deepEqual(y.runs.map((x) => `${x.wire}/${x.revision}:${x.grade}`).sort(), [
            'http-sse/2025-11-25:A',
            'http-stateful/2025-11-25:A',
            'http-stateless/2025-11-25:A',
            'http-stateless/2026-07-28:A',
            'stdio/2025-11-25:A',
            'stdio/2026-07-28:A',
          ]);
          assert.match(readFileSync(join(r.out, 'summary.md'), 'utf8'), /## The yardstick: the fixture's own compliance grade \(pass\)/);
        } else assert.equal(r.report?.fixture_compliance, undefined);
      } finally {
        r.cleanup();
      }
    });
  }
}
