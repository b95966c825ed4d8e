/**
 * Live stage against the embedded default: the fixture + the four npm reference servers behind
 * the reference proxy on loopback HTTP, measured over the wire (real processes, real sockets).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { runLive } from '../../pipeline/live/live-stage.ts';
import { UserError } from '../../pipeline/types.ts';
import { assertComponentsSum, assertLiveSchema, pidsIn, processesMentioning, waitDead } from './helpers.ts';
import { scriptArgs } from '../script-args.ts';

const GOLDEN = JSON.parse(readFileSync(new URL('../../datasets/golden-npm4-v1.json', import.meta.url), 'utf8')) as {
  queries: { id: string; labels: { tool_id: string; relevance: number }[] }[];
};
const CORPUS_TOOLS = (
  JSON.parse(readFileSync(new URL('../../datasets/corpus-npm4-v1.tools.json', import.meta.url), 'utf8')) as { tools: unknown[] }
).tools.length;

function tempDirOf(lines: string[]): string {
  const m = lines.map((l) => /embedded default in (\S+)/.exec(l)).find(Boolean);
  assert.ok(m, `no temp folder in the log: ${lines.join(' | ').slice(0, 300)}`);
  return m![1];
}

test('embedded default: menus, responses, retrieval, latency and economics measured over the wire; everything torn down', async () => {
  const lines: string[] = [];
  // LAP off here (its real run against the reference proxy is test/live/lap.test.ts)
  const live = await runLive({
    maxQueries: 4,
    runs: 2,
    warmup: 1,
    timeoutMs: 120_000,
    lap: 'off',
    log: (l) => lines.push(l),
    bootstrap: { iterations: 200, seed: 7 },
  });
  assertLiveSchema(live);
  // the proxy's own account of its upstreams (its log), independent of the live stage's direct listing
  const fixtureTools = Number(/upstream 'fixture' connected \(.*, (\d+) tools\)/.exec(lines.join('\n'))?.[1]);
  const proxyIndexed = Number(/proxy: (\d+) tools from 5\/5 upstreams/.exec(lines.join('\n'))?.[1]);
  assert.ok(fixtureTools >= 6, `fixture tool count from the proxy log: ${fixtureTools}`);
  // progress (issue 31): each upstream's boot says when it starts and when it is ready, with the time
  const names = [...lines.join('\n').matchAll(/upstream '([\w-]+)' connected/g)].map((m) => m[1]);
  assert.equal(names.length, 5, `5 upstreams connected in the proxy log:\n${lines.join('\n')}`);
  for (const n of names) {
    const start = lines.findIndex((l) => l.startsWith(`proxy: upstream '${n}': starting (`));
    const ready = lines.findIndex((l) => new RegExp(`^proxy: upstream '${n}' connected \\(.*\\): ready in \\d+ ms$`).test(l));
    assert.ok(start >= 0 && ready > start, `upstream ${n}: a "starting" line, then a "ready in N ms" line:\n${lines.join('\n')}`);
  }
  assert.ok(
    lines.some((l) => /^live: proxy ready at \S+ \(\d+ tools indexed\) in \d+ ms$/.test(l)),
    `the proxy boot's end line with its time:\n${lines.join('\n')}`,
  );

  // teardown: temp folder gone, no process left that mentions it, every logged child pid dead
  const dir = tempDirOf(lines);
  assert.equal(existsSync(dir), false, `temp folder ${dir} left behind`);
  const pids = pidsIn(lines);
  assert.ok(pids.length >= 5, `expected the 5 upstream pids in the proxy log, got ${pids.length}`);
  assert.deepEqual(await waitDead(pids), [], 'upstream processes left running');
  assert.deepEqual(processesMentioning(dir), []);

  assert.equal(live.target.kind, 'embedded');
  assert.equal(live.target.discovery_tool, 'retrieve_tools');
  assert.deepEqual(live.target.arg_names, { query: 'query', limit: 'limit', detail: 'detail' });
  assert.equal(live.proxy.server_name, 'mcpgauge-proxy');
  assert.equal(live.proxy.protocol_version, '2025-11-25');
  assert.equal(live.corpus_id, 'corpus-npm4-v1');

  // menus: both tokenizers, the proxy's 4 tools vs the union of the upstreams
  assert.deepEqual(
    live.menus.map((m) => m.tokenizer),
    ['cl100k_base', 'o200k_base'],
  );
  for (const m of live.menus) {
    assert.equal(m.proxy_tool_count, 4);
    assert.equal(m.upstream_tool_count, CORPUS_TOOLS + fixtureTools);
    assert.equal(m.upstream_tool_count, proxyIndexed);
    assert.equal(m.proxy_menu_tokens.provenance, 'measured');
    assert.equal(m.full_menu_tokens.provenance, 'measured');
    assert.ok(m.proxy_menu_tokens.value > 100, `proxy menu ${m.proxy_menu_tokens.value}`);
    assert.ok(
      m.full_menu_tokens.value > 5 * m.proxy_menu_tokens.value,
      `full ${m.full_menu_tokens.value} vs proxy ${m.proxy_menu_tokens.value}`,
    );
  }
  assert.equal(live.authoritative_headline, true, live.headline_reason);

  // responses: 4 queries x 2 details x 2 tokenizers, all ok, exact component sums
  assert.equal(live.responses.length, 16);
  assert.ok(
    live.responses.every((r) => r.ok),
    JSON.stringify(live.responses.filter((r) => !r.ok)),
  );
  assertComponentsSum(live);
  for (const r of live.responses) {
    assert.ok(r.result_count! >= 1 && r.result_count! <= 10, `result_count ${r.result_count}`);
    assert.ok(r.latency_ms > 0);
    const c = r.components!;
    if (r.detail === 'full')
      assert.ok(c.input_schemas > 0 && c.descriptions > 0 && c.metadata > 0 && c.usage_instructions > 0, JSON.stringify(c));
    else assert.equal(c.input_schemas, 0, 'compact responses carry no schemas');
  }
  // the same usage text in every response of one detail level and tokenizer
  for (const d of ['full', 'compact'] as const) {
    for (const tk of ['cl100k_base', 'o200k_base']) {
      const u = new Set(live.responses.filter((r) => r.detail === d && r.tokenizer === tk).map((r) => r.components!.usage_instructions));
      assert.equal(u.size, 1, `${d}/${tk}: usage_instructions ${[...u]}`);
    }
  }
  const summary = (d: string, tk = 'cl100k_base') => live.response_summary.find((s) => s.detail === d && s.tokenizer === tk)!;
  assert.equal(live.response_summary.length, 4);
  assert.equal(summary('full').n, 4);
  assert.ok(summary('compact').p50 < summary('full').p50, 'compact responses must be smaller than full ones');
  const fullTotals = live.responses.filter((r) => r.detail === 'full' && r.tokenizer === 'cl100k_base').map((r) => r.total_tokens!);
  assert.equal(summary('full').max, Math.max(...fullTotals));
  assert.equal(summary('full').mean, fullTotals.reduce((a, b) => a + b, 0) / 4);

  // retrieval: the proxy's ranking scored per golden query; recall recomputed here independently
  assert.deepEqual(
    live.retrieval.map((r) => r.detail),
    ['full', 'compact'],
  );
  for (const r of live.retrieval) {
    assert.equal(r.query_count, 4);
    assert.equal(r.errors, 0);
    assert.deepEqual(
      r.per_query!.map((q) => q.query_id),
      GOLDEN.queries.slice(0, 4).map((q) => q.id),
    );
    for (const q of r.per_query!) {
      assert.ok(q.top.length >= 1 && q.top.length <= 10);
      for (const id of q.top) assert.match(id, /^(fixture|filesystem|memory|sequential-thinking|everything):/);
      const gold = GOLDEN.queries
        .find((g) => g.id === q.query_id)!
        .labels.filter((l) => l.relevance >= 1)
        .map((l) => l.tool_id);
      assert.deepEqual([...(q.gold ?? [])].sort(), [...gold].sort());
      assert.equal(q.recall_at_10, gold.filter((g) => q.top.includes(g)).length / gold.length, q.query_id);
    }
  }
  assert.deepEqual(
    live.retrieval[1].per_query!.map((q) => q.top),
    live.retrieval[0].per_query!.map((q) => q.top),
    'full and compact rank alike',
  );

  // latency: warm-up then runs x queries, client-measured
  for (const l of live.latency) {
    assert.equal(l.n, 8);
    assert.equal(l.warmup, 1);
    assert.equal(l.runs, 2);
    assert.ok(l.p50_ms > 0 && l.p50_ms <= l.p95_ms && l.p95_ms <= l.p99_ms && l.p99_ms <= l.max_ms);
  }

  // economics from the measured inputs
  assert.equal(live.economics.break_even.length, 4);
  for (const be of live.economics.break_even) {
    const m = live.menus.find((x) => x.tokenizer === be.tokenizer)!;
    const s = summary(be.arm.replace('proxy_', ''), be.tokenizer);
    assert.equal(be.full_menu_tokens, m.full_menu_tokens.value);
    assert.equal(be.discovery_menu_tokens, m.proxy_menu_tokens.value);
    assert.equal(be.mean_response_tokens, s.mean);
    assert.equal(be.no_break_even, false);
    assert.equal(be.break_even_calls, (m.full_menu_tokens.value - m.proxy_menu_tokens.value) / s.mean);
  }
  assert.equal(live.economics.session_estimates.length, 16);
  const se = live.economics.session_estimates.find(
    (r) => r.arm === 'proxy_full' && r.tokenizer === 'cl100k_base' && r.calls_per_session === 3,
  )!;
  assert.equal(se.estimated_tokens, Math.floor(live.menus[0].proxy_menu_tokens.value + 3 * summary('full').mean + 0.5));

  assert.deepEqual(live.lap, { executed: false, skip_reason: 'skipped: LAP disabled (--no-lap)' });
  assert.deepEqual(live.errors, []);
});

test('embedded default: a failure after the proxy booted still tears everything down', async () => {
  const lines: string[] = [];
  await assert.rejects(
    runLive({
      embeddedServers: ['memory', 'sequential-thinking'],
      timeoutMs: 120_000,
      discoveryTool: 'find_tools',
      style: 'discovery',
      maxQueries: 1,
      runs: 1,
      warmup: 0,
      log: (l) => lines.push(l),
    }),
    (e: Error) => {
      assert.ok(e instanceof UserError);
      assert.match(e.message, /lists no tool named "find_tools" \(it lists: retrieve_tools, call_tool, describe_tool, upstream_servers\)/);
      return true;
    },
  );
  const dir = tempDirOf(lines);
  assert.equal(existsSync(dir), false);
  const pids = pidsIn(lines);
  assert.equal(pids.length, 2, lines.join('\n'));
  assert.deepEqual(await waitDead(pids), []);
  assert.deepEqual(processesMentioning(dir), []);
});

test('embedded default: SIGTERM during the run tears everything down, then the process dies of the signal', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    [...scriptArgs(new URL('./fixtures/run-embedded.ts', import.meta.url).pathname), 'memory', 'sequential-thinking'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    child.once('exit', (code, signal) => res({ code, signal })),
  );
  await new Promise<void>((res, rej) => {
    const t = setTimeout(() => rej(new Error(`child not ready in 90 s: ${out} ${err}`)), 90_000);
    child.stdout!.on('data', (d) => {
      out += d;
      if (/live: (full|compact): /.test(out)) {
        clearTimeout(t);
        res();
      }
    });
    child.once('exit', () => rej(new Error(`child exited early: ${out} ${err}`)));
  });
  const lines = out.split('\n');
  const dir = tempDirOf(lines);
  const pids = pidsIn(lines);
  assert.equal(pids.length, 2, out);
  assert.equal(existsSync(dir), true);
  child.kill('SIGTERM');
  const { signal } = await exited;
  assert.equal(signal, 'SIGTERM');
  assert.doesNotMatch(out, /finished/);
  assert.equal(existsSync(dir), false, 'temp folder removed by the signal handler');
  assert.deepEqual(await waitDead(pids), []);
  assert.deepEqual(processesMentioning(dir), []);
});
