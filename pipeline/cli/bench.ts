import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { JsonValue } from '../types.ts';
import { UserError } from '../types.ts';
import { DEFAULT_BENCH_OUT, DEFAULT_CORPUS, DEFAULT_DISCOVERY_MENU, DEFAULT_GOLDEN, DEFAULT_RESULT_FIXTURES, TOKENIZER_NAMES } from '../constants.ts';
import { assertInputFile, assertOutputDir } from '../util/fs.ts';
import { termLine } from '../util/escape.ts';
import type { CorpusInput } from '../bench/offline.ts';
import type { Report } from '../report/types.ts';
import { liveOptions, liveOptionsFromFlags } from '../live/flags.ts';
import { systemOptions, systemOptionsFromFlags, runSystemStages } from './system-flags.ts';
import { DEFAULT_RETRIEVER_ID, resolveRetrieverIds, retrieverIds } from '../retrieval/registry.ts';
import { EMBED_FLAGS, embedOptionsFromFlags } from './embed_flags.ts';

// Heavy modules (tiktoken, arrow, parquet, vega, the MCP SDK) load inside the action, so other
// subcommands (e.g. `mcpfixture`, which shares this CLI) start fast.

function intOpt(name: string, min: number) {
  return (v: string): number => {
    if (!/^\d+$/.test(v.trim()) || Number(v) < min) throw new UserError(`${name} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
    return Number(v);
  };
}
function numOpt(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw new UserError(`${name} must be a number, got ${JSON.stringify(v)}`);
    return n;
  };
}
/** comma list of registry ids, validated at parse time (one clear line on an unknown id) */
const retrieverList = (v: string): string[] => (v.trim() === 'all' ? retrieverIds() : resolveRetrieverIds(list(v)));
const collect = (v: string, prev: string[] = []) => [...prev, v];
const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

/** Registers `mcpgauge bench`: offline profile (+ `--live`), one report.json + tables + dashboard. */
export function register(program: Command): void {
  const cmd = program
    .command('bench')
    .description('Profile tool discovery: encode corpora through arms, count tokens, score the retrievers (--retriever) on golden queries, compute break-even; with --live also measure a running proxy. Writes report.json, tables/ and dashboard.html. Exit 0 profiled, 2 could not run as asked (bad flag, unreadable input, --out not writable, the live stage failed).')
    .option('--corpus <file>', 'corpus to profile (mcpgauge, mcpproxy, LiveMCPTool file, ToolRet folder, or a raw tools/list dump)', DEFAULT_CORPUS)
    .option('--golden <file>', 'golden query set for --corpus (default: the one for the default corpus; "none" = no scoring)')
    .option('--extra-corpus <file>', 'another corpus to profile without a golden set (repeatable; ToolRet folders bring their own queries)', collect, [])
    .option('--arms <list>', 'arms to run, comma list or "all"', 'all')
    .option('--tokenizers <list>', `tokenizers, comma list or "all" (${TOKENIZER_NAMES.join(', ')})`, 'all')
    .option('--out <dir>', 'output folder', DEFAULT_BENCH_OUT)
    .option('--bootstrap <n>', 'bootstrap iterations for the 95% intervals', intOpt('--bootstrap', 1), 2000)
    .option('--seed <n>', 'bootstrap seed', intOpt('--seed', 0), 42)
    .addOption(new Option('--retriever <list>', `retrievers to score, comma list or "all" (${retrieverIds().join(', ')}); the first one feeds the simulated discovery responses`).default('all').argParser(retrieverList))
    .option('--k1 <x>', 'BM25 k1', numOpt('--k1'))
    .option('--b <x>', 'BM25 b', numOpt('--b'))
    .option('--top-k <n>', 'tools per simulated discovery response (offline economics)', intOpt('--top-k', 1), 15)
    .option('--discovery-menu <file>', "the reference proxy's own tools (offline break-even)", DEFAULT_DISCOVERY_MENU)
    .option('--result-fixtures <file>', 'tool-result fixtures for the result arms (json, json_compact, toon, csv_when_tabular); "none" = skip', DEFAULT_RESULT_FIXTURES)
    .option('--allow-version-mismatch', "accept a --golden set made for another version of the corpus's tool set (as `corpus validate` does); its tool ids must still match", false)
    .option('--live', 'also run the live stage (the embedded default unless --proxy-url/--proxy-cmd/--preset)')
    .option('--preset <name>', 'live stage: measure this preset of datasets/presets (started in front of the embedded upstreams; a single-upstream one fronts the fixture)')
    .option('--no-live', 'no live stage (the default; for scripts that pass it explicitly)')
    .option('--no-offline', 'skip the offline stage (live only)')
    .option('--comply <file>', 'a `mcpgauge comply --format json` report to render into the same dashboard');
  for (const o of EMBED_FLAGS) cmd.addOption(o);
  for (const o of liveOptions()) cmd.addOption(o);
  for (const o of systemOptions()) cmd.addOption(o);
  cmd.action(async (flags: Record<string, unknown>, command: Command) => {
    const { runOffline } = await import('../bench/offline.ts');
    const { assembleReport } = await import('../bench/report.ts');
    const { writeReport } = await import('../report/write.ts');
    const { REPORT_SECTIONS } = await import('../sections.ts');
    // --out first: an unwritable folder fails now, not after the whole run
    assertOutputDir(resolve(String(flags.out)), '--out');
    // the dashboard's charts render in a worker thread that loads vega while the stages run (issue 31)
    (await import('../report/charts.ts')).startChartWorker();
    // --comply is read and validated before the run, so a bad file fails now
    const complyExtra = flags.comply ? [await (await import('../comply/section-input.ts')).complySectionInput(String(flags.comply))] : [];
    const argv = process.argv.slice(2);
    const log = (m: string) => process.stderr.write(`${termLine(m)}\n`);
    const corpusPath = resolve(String(flags.corpus));
    const goldenFlag = flags.golden as string | undefined;
    const golden =
      goldenFlag === 'none' ? undefined : goldenFlag ? resolve(goldenFlag) : corpusPath === DEFAULT_CORPUS ? DEFAULT_GOLDEN : undefined;
    // input files first: a FIFO, a device or a file over the size limit fails now in one line, not after the run
    // (a missing path or a folder is left to its loader, which names what it expected)
    for (const p of [corpusPath, ...(flags.extraCorpus as string[]).map((x) => resolve(x)), golden, resolve(String(flags.discoveryMenu)), flags.resultFixtures === 'none' ? undefined : resolve(String(flags.resultFixtures))]) {
      if (p !== undefined && existsSync(p) && !statSync(p).isDirectory()) assertInputFile(p, 'a JSON file');
    }
    const tokenizers = String(flags.tokenizers) === 'all' ? [...TOKENIZER_NAMES] : list(String(flags.tokenizers));
    if (!flags.offline && !flags.live) throw new UserError('--no-offline needs --live (nothing to do)');
    const allowVersionMismatch = flags.allowVersionMismatch === true;
    const corpora: CorpusInput[] = [{ path: corpusPath, golden, ...(allowVersionMismatch ? { allowVersionMismatch } : {}) }, ...(flags.extraCorpus as string[]).map((p) => ({ path: resolve(p) }))];
    // The live stage scores the proxy on a golden set; a corpus without one falls back to the
    // default corpus + golden set, which then joins the report's corpora so its rows resolve.
    let liveCorpus = corpusPath;
    let liveGolden = golden;
    if (flags.live && goldenFlag === 'none') {
      // honoured: no discovery queries; the live corpus only names the report's corpus row
      liveGolden = 'none';
      log('live stage: --golden none: no golden set, so no discovery queries; menus and the latency of a cheap call (tools/list) only');
    } else if (flags.live && !golden) {
      liveCorpus = DEFAULT_CORPUS;
      liveGolden = DEFAULT_GOLDEN;
      if (corpusPath !== DEFAULT_CORPUS) corpora.push({ path: DEFAULT_CORPUS, golden: DEFAULT_GOLDEN });
      log(`live stage: ${corpusPath} has no golden set; scoring the proxy on ${DEFAULT_GOLDEN}`);
    }
    const bm25: { k1?: number; b?: number } = {};
    if (flags.k1 !== undefined) bm25.k1 = flags.k1 as number;
    if (flags.b !== undefined) bm25.b = flags.b as number;
    const bootstrap = { iterations: flags.bootstrap as number, seed: flags.seed as number };
    // validate live flags before spending time offline
    const liveOpts = flags.live
      ? { ...liveOptionsFromFlags({ ...(flags as Record<string, never>), golden: liveGolden, corpus: liveCorpus, tokenizers: tokenizers.join(',') } as never), ...(allowVersionMismatch ? { allowVersionMismatch } : {}) }
      : undefined;
    if (flags.preset !== undefined) {
      if (!flags.live) throw new UserError('--preset needs --live (bench measures a preset in the live stage)', 2);
      if (flags.proxyUrl !== undefined || flags.proxyCmd !== undefined || (flags.system as string[]).length > 0) throw new UserError('--preset cannot be combined with --proxy-url, --proxy-cmd or --system (use --system NAME=preset:NAME)', 2);
      (await import('../adapter/preset.ts')).loadPreset(String(flags.preset));
    }
    const systemOpts = systemOptionsFromFlags(flags);
    const explicitSystems = (flags.system as string[]).length > 0;
    const t0 = performance.now();
    const offline = flags.offline || liveOpts
      ? await runOffline({
          corpusOnly: !flags.offline,
          corpora,
          discoveryMenu: resolve(String(flags.discoveryMenu)),
          arms: String(flags.arms) === 'all' ? 'all' : list(String(flags.arms)),
          tokenizers,
          bootstrap,
          retrievers: retrievers(flags.retriever),
          retrieverOptions: { ...bm25, ...embedOptionsFromFlags(flags) },
          responseTopK: flags.topK as number,
          log,
        })
      : undefined;
    if (flags.offline) log(`offline stage: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    let results;
    if (flags.offline && flags.resultFixtures !== 'none') {
      const { runResultsStage } = await import('../toolresults/stage.ts');
      const { resolveTokenizers } = await import('../tokens/tokenizer.ts');
      results = runResultsStage({ file: resolve(String(flags.resultFixtures)), tokenizers: resolveTokenizers(tokenizers) });
      log(`result arms: ${results.fixture_set.fixture_count} fixtures (${results.fixture_set.tabular_count} tabular) x ${results.arms.length} arms`);
    }
    let live;
    if (liveOpts && !explicitSystems) {
      const t1 = performance.now();
      log('live stage: starting');
      // the embedded proxy runs the first --retriever (the one that also feeds the simulated responses)
      if (flags.preset !== undefined) {
        const { runPresetLive } = await import('../systems/live.ts');
        live = await runPresetLive(String(flags.preset), { ...liveOpts, bootstrap, log }, explicitLive(liveOpts, command));
      } else {
        // the live stage (MCP client SDK, zod) loads only when it runs
        const { runLive } = await import('../live/live-stage.ts');
        live = await runLive({ ...liveOpts, bootstrap, log, retriever: retrievers(flags.retriever)[0], retrieverOptions: embedOptionsFromFlags(flags) });
      }
      // error rows = failed measured calls; live.errors also holds notes that are not failed calls (e.g. LAP's divergence warning)
      const failed = live.status?.failed_calls ?? live.responses.filter((x) => !x.ok).length;
      const notes = live.errors.length - failed;
      log(`live stage: ${((performance.now() - t1) / 1000).toFixed(1)} s, ${failed} error row(s)${notes > 0 ? `, ${notes} other problem(s) noted in live.errors` : ''}`);
    }
    const staged = liveOpts ? await runSystemStages(systemOpts, { ...liveOpts, bootstrap, log }, explicitSystems) : {};
    const options: { [k: string]: JsonValue } = JSON.parse(
      JSON.stringify({ corpora, arms: flags.arms, tokenizers, bootstrap, bm25, retrievers: retrievers(flags.retriever), ...(flags.embedUrl ? { embed: embedOptionsFromFlags(flags) } : {}), top_k: flags.topK, live: Boolean(flags.live), offline: Boolean(flags.offline), result_fixtures: flags.offline ? flags.resultFixtures : undefined, ...(systemOpts.systems ? { systems: systemOpts.systems.map((x) => `${x.name}=${x.spec}`) } : {}), ...(systemOpts.scale ? { scale: systemOpts.scale } : {}) }),
    );
    const report = assembleReport({ offline, live, results, ...staged, tokenizers, options, argv, secrets: liveOpts?.apiKey ? [liveOpts.apiKey] : [] });
    const written = await writeReport(report, resolve(String(flags.out)), REPORT_SECTIONS, complyExtra);
    for (const line of (await import('../report/summary.ts')).summaryLines(report, REPORT_SECTIONS)) log(line);
    process.stdout.write(`report: ${written.report}\ndashboard: ${written.dashboard}\n`);
    if (report.live?.status?.state === 'failed') {
      // the report is written and marked failed; the exit code says so too
      log(`live stage FAILED: ${report.live.status.reason}`);
      process.exitCode = 2;
    }
  });
}

/** The live options the user set on the command line (they win over a preset's adapter block). */
function explicitLive(o: import('../live/types.ts').LiveOptions, command: Command): Partial<import('../live/types.ts').LiveOptions> {
  const cli = (k: string) => command.getOptionValueSource(k) === 'cli';
  const out: Partial<import('../live/types.ts').LiveOptions> = {};
  const keys: Array<[string, keyof import('../live/types.ts').LiveOptions]> = [['style', 'style'], ['discoveryTool', 'discoveryTool'], ['callTool', 'callTool'], ['callArgsArg', 'callArgsArg'], ['callNameArg', 'callNameArg'], ['limit', 'limit'], ['transport', 'transport']];
  for (const [flag, key] of keys) if (cli(flag) && o[key] !== undefined) (out as Record<string, unknown>)[key] = o[key];
  if (out.style !== undefined) out.styleSource = '--style';
  const names: Array<['queryArg' | 'limitArg' | 'detailArg', 'query' | 'limit' | 'detail']> = [['queryArg', 'query'], ['limitArg', 'limit'], ['detailArg', 'detail']];
  for (const [flag, key] of names) if (cli(flag) && o.argNames?.[key] !== undefined) out.argNames = { ...out.argNames, [key]: o.argNames[key] };
  return out;
}

/** the parsed --retriever value (the default is a plain string) */
function retrievers(v: unknown): string[] {
  return Array.isArray(v) ? (v as string[]) : retrieverList(String(v));
}
