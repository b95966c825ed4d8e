/**
 * Live stage against proxies it did not boot itself: a second reference proxy started by
 * command (`--proxy-cmd`, stdio) over a different upstream config, and a target where one
 * discovery call fails (the fixture's yardstick `echo`, which rejects non-alphanumeric input).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLive } from '../../pipeline/live/live-stage.ts';
import { FIXTURE_BIN } from '../../pipeline/fixture/launch.ts';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { UserError } from '../../pipeline/types.ts';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { getTokenizer } from '../../pipeline/tokens/tokenizer.ts';
import { getArm } from '../../arms/registry.ts';
import { BASELINE_ARM_ID } from '../../pipeline/constants.ts';
import { assertComponentsSum, assertLiveSchema, processesMentioning } from './helpers.ts';

/** tools are indexed (and menus rendered) like the baseline arm */
const baselineArm = getArm(BASELINE_ARM_ID);

const GOLDEN = JSON.parse(readFileSync(join(REPO_ROOT, 'datasets', 'golden-npm4-v1.json'), 'utf8')) as {
  corpus_version: string;
  queries: { id: string; query: string; labels: { tool_id: string; relevance: number }[] }[];
};
const CORPUS = JSON.parse(readFileSync(join(REPO_ROOT, 'datasets', 'corpus-npm4-v1.tools.json'), 'utf8')) as {
  tools: { server: string }[];
};
const toolsOf = (server: string) => CORPUS.tools.filter((t) => t.server === server).length;
const FIXTURE_BUILTIN_TOOLS = 6; // echo, ping, slow, large, fail, stats
const CONNECT_MS = 120_000; // process start on a loaded 2-core box

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcpgauge-live-test-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function writeGolden(name: string, queries: (typeof GOLDEN)['queries']): string {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify({ corpus_version: GOLDEN.corpus_version, version: `test-${name}`, queries }));
  return p;
}

test('a second proxy started by --proxy-cmd (stdio) over a different upstream config (memory + everything), full menu from --upstreams', async () => {
  const cfg = join(dir, 'second proxy.json'); // a space in the path exercises the command-line quoting
  writeFileSync(
    cfg,
    JSON.stringify({
      servers: [
        {
          name: 'memory',
          command: process.execPath,
          args: [join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
          env: { MEMORY_FILE_PATH: join(dir, 'mem.jsonl') },
        },
        {
          name: 'everything',
          command: process.execPath,
          args: [join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
        },
      ],
      tools_limit: 5,
      connect_timeout_ms: 120_000,
    }),
  );
  // memory queries whose words overlap the memory tools' text (others legitimately match nothing here)
  const memQueries = GOLDEN.queries.filter((q) => ['q-mem-new-project', 'q-mem-forget-person', 'q-mem-dump'].includes(q.id));
  assert.equal(memQueries.length, 3);
  const golden = writeGolden('memory.json', memQueries);
  const cmd = `node ${join(REPO_ROOT, 'bin', 'mcpgauge.mjs')} proxy --config '${cfg}' --transport stdio`;

  const live = await runLive({
    proxyCmd: cmd,
    upstreamsFile: cfg,
    goldenFile: golden,
    runs: 2,
    warmup: 1,
    limit: 4,
    timeoutMs: CONNECT_MS,
    bootstrap: { iterations: 100, seed: 1 },
  });
  assertLiveSchema(live);
  assert.deepEqual(processesMentioning(cfg), [], 'the proxy started by command must be gone');

  assert.equal(live.target.kind, 'command');
  assert.match(
    live.target.description,
    /^proxy command: node .*mcpgauge\.mjs proxy --config '.*second proxy\.json' --transport stdio; full menu from tools\/list of the upstreams in /,
  );
  assert.equal(live.proxy.server_name, 'mcpgauge-proxy');
  for (const m of live.menus) {
    assert.equal(m.proxy_tool_count, 4);
    assert.equal(m.upstream_tool_count, toolsOf('memory') + toolsOf('everything'));
    assert.equal(m.full_menu_tokens.provenance, 'measured');
    assert.ok(m.full_menu_tokens.value > m.proxy_menu_tokens.value && m.proxy_menu_tokens.value > 100);
  }
  assert.equal(live.authoritative_headline, true, live.headline_reason);

  // 3 queries x 2 details x 2 tokenizers; limit 4 honoured
  assert.equal(live.responses.length, 12);
  assert.ok(
    live.responses.every((r) => r.ok && r.result_count! >= 1 && r.result_count! <= 4),
    JSON.stringify(live.responses.map((r) => [r.ok, r.result_count, r.error])),
  );
  assertComponentsSum(live);
  for (const r of live.retrieval) {
    assert.equal(r.query_count, 3);
    for (const q of r.per_query!) {
      assert.ok(q.top.length >= 1 && q.top.length <= 4);
      for (const id of q.top) assert.match(id, /^(everything|memory):/);
    }
  }
  const full = live.retrieval.find((r) => r.detail === 'full')!;
  assert.ok(
    full.per_query!.every((q) => q.top.some((id) => id.startsWith('memory:'))),
    JSON.stringify(full.per_query!.map((q) => q.top)),
  );
  assert.ok(full.summary!.recall_at_10.value > 0);
  assert.deepEqual(
    live.latency.map((l) => [l.detail, l.n, l.warmup, l.runs]),
    [
      ['full', 6, 1, 2],
      ['compact', 6, 1, 2],
    ],
  );
  assert.equal(live.economics.break_even.length, 4);
  assert.equal(live.lap.executed, false);
  assert.match(live.lap.skip_reason!, /skipped: (lap not installed|lap needs an HTTP proxy URL)/);
  assert.deepEqual(live.errors, []);
});

test('a failing discovery call is an error row, not an aborted run; corpus fallback and LAP merge are labelled', async () => {
  const [a, b] = GOLDEN.queries;
  const golden = writeGolden('echo.json', [
    { ...a, id: 'alnum', query: 'readfile' },
    { ...b, id: 'spaces', query: 'read a file' },
  ]);
  const lapJson = join(dir, 'lap.json');
  writeFileSync(lapJson, JSON.stringify({ grade: { score: 60, letter: 'C' }, menu_tokens: 100000 }));
  const corpus = await loadCorpus(join(REPO_ROOT, 'datasets', 'corpus-npm4-v1.tools.json'));
  const live = await runLive({
    proxyCmd: `node ${FIXTURE_BIN} --transport stdio --compat yardstick`,
    discoveryTool: 'echo',
    argNames: { query: 'input', limit: null, detail: null },
    goldenFile: golden,
    runs: 1,
    warmup: 0,
    lapJson,
    timeoutMs: CONNECT_MS,
    bootstrap: { iterations: 50, seed: 1 },
  });
  assertLiveSchema(live);
  assert.deepEqual(live.target.arg_names, { query: 'input', limit: null, detail: null });
  assert.equal(live.proxy.server_name, 'mcpfixture');

  // only full is measured: echo declares no detail argument
  assert.deepEqual([...new Set(live.responses.map((r) => r.detail))], ['full']);
  const row = (id: string) => live.responses.find((r) => r.query_id === id && r.tokenizer === 'cl100k_base')!;
  assert.equal(row('alnum').ok, true);
  assert.equal(row('alnum').result_count, 0);
  assert.equal(row('alnum').components!.other, row('alnum').total_tokens, 'a response without a tools array is all other');
  assert.ok(row('alnum').total_tokens! > 0);
  assert.equal(row('spaces').ok, false);
  assert.match(row('spaces').error!, /^tool error: input must be alphanumeric only/);
  assert.ok(row('spaces').latency_ms > 0, 'an error row keeps the failed call duration');
  assertComponentsSum(live);

  const r = live.retrieval[0];
  assert.equal(r.errors, 1);
  assert.match(r.per_query!.find((q) => q.query_id === 'spaces')!.error!, /alphanumeric/);
  assert.equal(r.per_query!.find((q) => q.query_id === 'alnum')!.error, undefined);
  assert.deepEqual(r.per_query!.find((q) => q.query_id === 'alnum')!.top, []);
  assert.equal(live.latency[0].n, 1, 'only the successful call is timed');

  const where = live.errors.map((e) => e.where);
  assert.ok(where.includes('query:spaces/full'), JSON.stringify(live.errors));
  assert.ok(where.includes('menu'), 'compact not measured is reported');
  assert.ok(where.includes('spans:alnum/full'), 'a response without tools is flagged');
  assert.ok(!where.includes('lap'), 'a LAP divergence is a warning, not an error row');
  assert.match(live.lap.warning ?? '', /LAP counts/, 'the LAP divergence warning is reported as a warning');

  // no --upstreams: the full menu comes from the corpus file, labelled and estimated
  assert.match(live.target.description, /full menu from corpus file .*corpus-npm4-v1\.tools\.json \(corpus-npm4-v1; not listed live/);
  for (const m of live.menus) {
    assert.equal(m.full_menu_tokens.provenance, 'estimated');
    assert.equal(m.upstream_tool_count, 37);
    assert.equal(m.proxy_tool_count, FIXTURE_BUILTIN_TOOLS);
    // the fallback menu is exactly the corpus rendered like the baseline_json arm
    assert.equal(m.full_menu_tokens.value, getTokenizer(m.tokenizer).count(baselineArm.renderListing(corpus.tools)));
  }
  const inHouse = live.menus.find((m) => m.tokenizer === 'cl100k_base')!.proxy_menu_tokens.value;
  assert.equal(live.lap.executed, true);
  assert.equal(live.lap.grade, 'C');
  assert.equal(live.lap.menu_tokens, 100000);
  assert.equal(live.lap.in_house_menu_tokens, inHouse);
  assert.equal(live.lap.divergence_pct, Math.round(((100 * (100000 - inHouse)) / inHouse) * 100) / 100);
  assert.match(live.lap.warning!, /more than ±15%/);
});

test('a proxy by --proxy-url with --api-key (both auth headers); a wrong key is a one-line user error', async () => {
  const { startProxy, validateProxyConfig } = await import('../../pipeline/proxy/index.ts');
  const config = validateProxyConfig(
    {
      servers: [
        {
          name: 'memory',
          command: process.execPath,
          args: [join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
          env: { MEMORY_FILE_PATH: join(dir, 'mem2.jsonl') },
        },
        {
          name: 'sequential-thinking',
          command: process.execPath,
          args: [join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js')],
        },
      ],
    },
    'test config',
  );
  const proxy = await startProxy(config, { transport: 'http', port: 0, apiKey: 'right-key', log: () => {} });
  try {
    const origin = new URL(proxy.url).origin; // the live stage adds /mcp to a bare origin
    const golden = writeGolden(
      'url.json',
      GOLDEN.queries.filter((q) => q.id === 'q-mem-dump'),
    );
    const live = await runLive({
      proxyUrl: origin,
      apiKey: 'right-key',
      goldenFile: golden,
      timeoutMs: CONNECT_MS,
      runs: 1,
      warmup: 0,
      details: ['full'],
      tokenizers: ['cl100k_base'],
      bootstrap: { iterations: 20, seed: 1 },
    });
    assertLiveSchema(live);
    assert.equal(live.target.kind, 'url');
    assert.match(
      live.target.description,
      new RegExp(`^proxy at ${proxy.url.replace(/[./]/g, '\\$&')} \\(API key\\); full menu from corpus file `),
    );
    assert.deepEqual(
      live.menus.map((m) => [m.tokenizer, m.proxy_tool_count]),
      [['cl100k_base', 4]],
    );
    assert.equal(live.responses.length, 1);
    assert.equal(live.responses[0].ok, true);
    assert.ok(live.responses[0].result_count! >= 1);
    assert.ok(live.retrieval[0].per_query![0].top.every((id) => /^(memory|sequential-thinking):/.test(id)));

    await assert.rejects(runLive({ proxyUrl: proxy.url, apiKey: 'wrong-key', goldenFile: golden, runs: 1, warmup: 0 }), (e: Error) => {
      assert.ok(e instanceof UserError, String(e));
      assert.match(e.message, /^live: cannot connect to http:\/\/127\.0\.0\.1:\d+\/mcp: .*wrong API key/);
      assert.doesNotMatch(e.message, /\n/);
      return true;
    });
  } finally {
    await proxy.close();
  }
});
