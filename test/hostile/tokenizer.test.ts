/**
 * Tokenizer blow-up (issue 29, round two, item 1): one huge run of letters in a description.
 * BPE is quadratic in a pre-token's length and tiktoken fails near 1 MB, so before the fix a
 * 1 MB run made `bench` exit 13 with no message (the counting worker was left pending), a 100 KB
 * run took minutes, and behind a proxy a 150 KB description held the gate's budget step far past
 * its deadline. Now: runs past the limit are cut (pipeline/tokens/bound.ts), the report says
 * where and how the count is bounded, a dying worker is an error with its reason, and the
 * budget step keeps its deadline and names the cause (also when the proxy drops the connection,
 * undici's bare "fetch failed", or never answers: the real fixture with a crash/hang fault).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assertRedExactly, runGateCli } from '../gate/helpers.ts';
import { step as budgetStep } from '../../pipeline/gate/steps/budget.ts';
import { loadGateConfig } from '../../pipeline/gate/config.ts';
import { openProxySession } from '../../pipeline/adapter/index.ts';
import type { CellContext } from '../../pipeline/gate/types.ts';
import { scriptArgs } from '../script-args.ts';

const REPO = resolve(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'mcpgauge.mjs');
const RUN_LIMIT = 1024;
/** a generous wall-clock bound for a loaded test machine (the measured run takes ~3-8 s; before the fix 274 s) */
const BENCH_DEADLINE_MS = 60_000;

function letterRunCorpus(dir: string, chars: number, name = 'big_reader', prefix = ''): string {
  const tools = [
    { name, description: prefix + 'a'.repeat(chars), inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
    {
      name: 'read_file',
      description: 'Read a file from disk and return its text.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ];
  const p = join(dir, `run-${chars}.tools.json`);
  writeFileSync(p, JSON.stringify({ tools }));
  return p;
}

interface BenchRun {
  code: number | null;
  signal: string | null;
  stderr: string;
  ms: number;
}

function bench(corpus: string, out: string, env: Record<string, string> = {}): Promise<BenchRun> {
  const args = [
    BIN,
    'bench',
    '--corpus',
    corpus,
    '--no-live',
    '--out',
    out,
    '--arms',
    'baseline_json,compact_json',
    '--retriever',
    'bm25',
    '--result-fixtures',
    'none',
    '--bootstrap',
    '50',
  ];
  const t0 = performance.now();
  return new Promise((done) => {
    execFile(
      process.execPath,
      args,
      { cwd: REPO, env: { ...process.env, ...env }, timeout: BENCH_DEADLINE_MS, maxBuffer: 16 * 1024 * 1024 },
      (err, _stdout, stderr) => {
        const e = err as (Error & { code?: number; signal?: string }) | null;
        done({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, signal: e?.signal ?? null, stderr, ms: performance.now() - t0 });
      },
    );
  });
}

for (const chars of [1_000_000, 100_000]) {
  test(`bench on a ${chars / 1000} KB letter run: exit 0, a report, the bound stated where it applied`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-tok-'));
    try {
      const out = join(dir, 'out');
      const r = await bench(letterRunCorpus(dir, chars), out);
      const why = `exit ${r.code} signal ${r.signal} after ${Math.round(r.ms)} ms; stderr: ${r.stderr.slice(-1500)}`;
      assert.equal(r.code, 0, why);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      const tb = report.corpora[0].token_bounds;
      assert.ok(tb, `the corpus row states the bound; ${why}`);
      assert.equal(tb.run_limit, RUN_LIMIT);
      assert.equal(tb.bound, 'estimate');
      assert.equal(tb.max_error_per_cut, 1);
      assert.match(tb.note, /1024-character pieces/);
      assert.equal(tb.fields_total, 1);
      assert.deepEqual(tb.fields, [
        { tool_id: `run-${chars}:big_reader`, field: 'description', runs: 1, longest_run: chars, cuts: Math.ceil(chars / RUN_LIMIT) - 1 },
      ]);
      assert.deepEqual(tb.arms.map((a: { arm: string }) => a.arm).sort(), ['baseline_json', 'compact_json']);
      for (const a of tb.arms) assert.ok(a.texts >= 2 && a.cuts >= 2 * tb.fields[0].cuts, JSON.stringify(a));
      // the other tool is counted exactly: its per-tool figure is the same as on its own
      assert.ok(report.arms[0].by_tokenizer.cl100k_base.per_tool_tokens[1] < 40);
      assert.match(
        r.stderr,
        new RegExp(
          `warning: corpus run-${chars}\\.tools: "run-${chars}:big_reader" description \\(run of ${chars} chars\\) longer than the 1024-character run limit`,
        ),
      );
      assert.match(readFileSync(join(out, 'dashboard.html'), 'utf8'), /Bounded token counts in run-/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('a counting worker that dies is an error with its reason, not a silent exit 13', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-tok-'));
  try {
    const out = join(dir, 'out');
    // 1 MB: the arm's texts pass the size at which the second tokenizer goes to the worker
    const r = await bench(letterRunCorpus(dir, 1_000_000), out, { MCPGAUGE_TEST_WORKER_EXIT: '7' });
    const why = `exit ${r.code} signal ${r.signal}; stderr: ${r.stderr.slice(-1500)}`;
    assert.equal(r.code, 2, why);
    assert.match(r.stderr, /^mcpgauge: token-counting worker exited \(code 7\) with \d+ job\(s\) pending$/m, why);
    assert.equal(existsSync(join(out, 'report.json')), false, 'no report from a failed run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('closing the counting worker with a job pending ends normally (no silent exit 13)', async () => {
  const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    execFile(
      process.execPath,
      scriptArgs(join(import.meta.dirname, 'helpers-tokenizer.ts')),
      { cwd: REPO, timeout: 60_000 },
      (err, stdout, stderr) => {
        const e = err as (Error & { code?: number }) | null;
        done({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout, stderr });
      },
    );
  });
  assert.equal(r.code, 0, `stdout: ${r.stdout} stderr: ${r.stderr}`);
  assert.match(r.stdout, /^job: token-counting worker closed with jobs pending\nclosed\n$/);
});

test('gate budget step behind a proxy: a 150 KB description keeps the deadline, the verdict names the cause', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-tok-'));
  const cell = 'http-stateless/2025-11-25';
  try {
    // every fixture behind the reference proxy serves this tool; every budget query finds it
    const corpus = letterRunCorpus(dir, 150_000, 'echo_everything', 'Echo a string back. ');
    let stepMs = 0;
    const r = await runGateCli(
      ['--cells', cell, '--no-fixture-grade'],
      { MCPGAUGE_GATE_FIXTURE_ARGS: JSON.stringify(['--catalog-from', corpus, '--catalog', '0']) },
      {
        patch: (c) => {
          delete c.compliance;
          c.budgets.queries = Array.from({ length: 5 }, () => ({ query: 'echo a string back', tool: 'echo' }));
          stepMs = c.timeouts.step_ms;
        },
      },
    );
    try {
      assertRedExactly(r, { [cell]: 'budget' });
      const budget = r.report!.cells[0].steps.find((s) => s.name === 'budget')!;
      const ev = budget.evidence as Record<string, any>;
      assert.ok(budget.duration_ms < stepMs, `budget took ${budget.duration_ms} ms, deadline ${stepMs} ms`);
      assert.match(
        budget.reason,
        /^median discovery response \d+ tokens > budget 1500 \(largest: \d+ tokens, \d{6,} characters, for "echo a string back"\)/,
      );
      assert.match(
        budget.reason,
        /held a run over 1024 characters, longest 150000: counted in bounded time, within 1 token per cut of exact/,
      );
      assert.equal(ev.token_bound.run_limit, RUN_LIMIT);
      assert.ok(ev.token_bound.cuts >= 5 * 146, JSON.stringify(ev.token_bound));
      assert.ok(
        ev.largest_responses[0].tools.some((t: string) => t.includes('echo_everything')),
        JSON.stringify(ev.largest_responses[0]),
      );
    } finally {
      r.cleanup();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The fixture over loopback HTTP with a fault on its Nth tools/list (env BACKEND_MODE etc.); resolves with its URL. */
function faultyFixture(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'fixture', '--transport', 'http', '--port', '0'], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((done, fail) => {
    let err = '';
    const timer = setTimeout(() => fail(new Error(`fixture did not start: ${err}`)), 30_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        done({ url: m[1], child });
      }
    });
    child.on('exit', () => fail(new Error(`fixture exited: ${err}`)));
  });
}

/** Run the budget step against `url` as a pass-through proxy, with a short per-call deadline. */
async function budgetAgainst(url: string, stepMs: number) {
  const cfg = loadGateConfig(join(REPO, 'gate.config.json'));
  cfg.timeouts.step_ms = stepMs;
  const session = await openProxySession({ kind: 'http', url, headers: {} }, { timeoutMs: 10_000 });
  try {
    const ctx = { cfg, session, metrics: {}, opts: { adapter: { toolMap: undefined } } } as unknown as CellContext;
    const t0 = performance.now();
    const out = await budgetStep.run(ctx);
    return { out, ms: performance.now() - t0 };
  } finally {
    await session.close().catch(() => {});
  }
}

test('budget step: a proxy that drops the connection is a verdict naming the phase and the cause, with evidence', async () => {
  // the first tools/list (opening the session) is served; the budget step's own one kills the process
  const { url, child } = await faultyFixture({ BACKEND_MODE: 'crash', CRASH_AFTER_N: '2', FAULT_METHODS: 'tools/list' });
  try {
    const { out } = await budgetAgainst(url, 5000);
    const ev = out.evidence as Record<string, unknown>;
    assert.equal(out.status, 'fail', out.reason);
    assert.match(out.reason, /^tools\/list: fetch failed: .+ after \d+ ms \(deadline per call 5000 ms\)$/);
    assert.doesNotMatch(out.reason, /^tools\/list: fetch failed after/, 'the cause of "fetch failed" is named');
    assert.equal(ev.phase, 'tools/list');
    assert.equal(ev.deadline_ms, 5000);
    assert.match(String(ev.error), /^fetch failed: /);
  } finally {
    child.kill('SIGKILL');
  }
});

test('budget step: a proxy that never answers fails at the per-call deadline, naming the phase', async () => {
  const { url, child } = await faultyFixture({ BACKEND_MODE: 'hang', HANG_AFTER_N: '2', FAULT_METHODS: 'tools/list' });
  try {
    const { out, ms } = await budgetAgainst(url, 1500);
    assert.equal(out.status, 'fail', out.reason);
    assert.match(out.reason, /^tools\/list: .*1500 ms/);
    assert.ok(ms < 1500 + 500 + 3000, `the step took ${Math.round(ms)} ms`);
    assert.equal((out.evidence as Record<string, unknown>).phase, 'tools/list');
  } finally {
    child.kill('SIGKILL');
  }
});
