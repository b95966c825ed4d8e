import { type Command, Option } from 'commander';
import { UserError } from '../types.ts';
import { DEFAULT_BENCH_OUT, DEFAULT_CORPUS, DEFAULT_DISCOVERY_MENU, DEFAULT_RESULT_FIXTURES, TOKENIZER_NAMES } from '../constants.ts';
import { termLine } from '../util/escape.ts';
import type { BenchOptions } from '../bench/run.ts';
import { liveOptions, liveOptionsFromFlags } from '../live/flags.ts';
import { systemOptions, systemOptionsFromFlags } from './system-flags.ts';
import { resolveRetrieverIds, retrieverIds } from '../retrieval/index.ts';
import { EMBED_FLAGS, embedOptionsFromFlags } from './embed-flags.ts';
import { FILE_FORMATS, FOLDER_FORMATS } from '../corpus/formats/index.ts';

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
const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Registers `mcpgauge bench`: offline profile (+ `--live`), one report.json + tables + dashboard. */
export function register(program: Command): void {
  const cmd = program
    .command('bench')
    .description(
      'Profile tool discovery: encode corpora through arms, count tokens, score the retrievers (--retriever) on golden queries, compute break-even; with --live also measure a running proxy. Writes report.json, tables/ and dashboard.html. Exit 0 profiled, 2 could not run as asked (bad flag, unreadable input, --out not writable, the live stage failed).',
    )
    .option(
      '--corpus <file>',
      `corpus to profile; its shape is sniffed (file: ${FILE_FORMATS.map((f) => f.format).join(', ')}; folder: ${FOLDER_FORMATS.map((f) => f.format).join(', ')})`,
      DEFAULT_CORPUS,
    )
    .option('--golden <file>', 'golden query set for --corpus (default: the one for the default corpus; "none" = no scoring)')
    .option(
      '--extra-corpus <file>',
      'another corpus to profile without a golden set (repeatable; ToolRet folders bring their own queries)',
      collect,
      [],
    )
    .option('--arms <list>', 'arms to run, comma list or "all"', 'all')
    .option('--tokenizers <list>', `tokenizers, comma list or "all" (${TOKENIZER_NAMES.join(', ')})`, 'all')
    .option('--out <dir>', 'output folder', DEFAULT_BENCH_OUT)
    .option('--bootstrap <n>', 'bootstrap iterations for the 95% intervals', intOpt('--bootstrap', 1), 2000)
    .option('--seed <n>', 'bootstrap seed', intOpt('--seed', 0), 42)
    .addOption(
      new Option(
        '--retriever <list>',
        `retrievers to score, comma list or "all" (${retrieverIds().join(', ')}); the first one feeds the simulated discovery responses`,
      )
        .default('all')
        .argParser(retrieverList),
    )
    .option('--k1 <x>', 'BM25 k1', numOpt('--k1'))
    .option('--b <x>', 'BM25 b', numOpt('--b'))
    .option('--top-k <n>', 'tools per simulated discovery response (offline economics)', intOpt('--top-k', 1), 15)
    .option('--discovery-menu <file>', "the reference proxy's own tools (offline break-even)", DEFAULT_DISCOVERY_MENU)
    .option(
      '--result-fixtures <file>',
      // spelled out, not read from arms/result-registry.ts: that would load the encoders on --help
      // (test/build/dist.test.ts); test/docs-lists.test.ts holds this list to the registry
      'tool-result fixtures for the result arms (json, json_compact, toon, csv_when_tabular); "none" = skip',
      DEFAULT_RESULT_FIXTURES,
    )
    .option(
      '--allow-version-mismatch',
      "accept a --golden set made for another version of the corpus's tool set (as `corpus validate` does); its tool ids must still match",
      false,
    )
    .option('--live', 'also run the live stage (the embedded default unless --proxy-url/--proxy-cmd/--preset)')
    .option(
      '--preset <name>',
      'live stage: measure this preset of datasets/presets (started in front of the embedded upstreams; a single-upstream one fronts the fixture)',
    )
    .option('--no-live', 'no live stage (the default; for scripts that pass it explicitly)')
    .option('--no-offline', 'skip the offline stage (live only)')
    .option('--comply <file>', 'a `mcpgauge comply --format json` report to render into the same dashboard')
    .option(
      '--no-dashboard',
      'write report.json and tables/ only, no charts (faster; `mcpgauge report --bench OUT/report.json --out OUT/dashboard.html` draws it from them later); a dashboard.html an earlier run left in --out is removed',
    );
  for (const o of EMBED_FLAGS) cmd.addOption(o);
  for (const o of liveOptions()) cmd.addOption(o);
  for (const o of systemOptions()) cmd.addOption(o);
  cmd.action(async (flags: Record<string, unknown>, command: Command) => {
    const { runBench } = await import('../bench/run.ts');
    const { REPORT_SECTIONS } = await import('../sections.ts');
    const { report, written } = await runBench({ ...benchOptionsFromFlags(flags, command), sections: REPORT_SECTIONS });
    process.stdout.write(`report: ${written.report}\n${written.dashboard ? `dashboard: ${written.dashboard}\n` : ''}`);
    // the report is written and marked failed; the exit code says so too. A --system that could
    // not be started or measured is recorded with its error and the others go on, but the run
    // did not do what was asked: 2, as for a failed live stage (CI sees it without reading the report)
    const failedSystems = (report.systems ?? []).filter((s) => s.error !== undefined).map((s) => s.name);
    if (failedSystems.length)
      process.stderr.write(
        `mcpgauge bench: ${failedSystems.length} system(s) failed: ${failedSystems.join(', ')} (exit 2; the report records each error)\n`,
      );
    if (report.live?.status?.state === 'failed' || failedSystems.length) process.exitCode = 2;
  });
}

/** commander's values -> the bench's options (a bad flag or flag combination is a one-line UserError) */
function benchOptionsFromFlags(flags: Record<string, unknown>, command: Command): Omit<BenchOptions, 'sections'> {
  const tokenizers = String(flags.tokenizers) === 'all' ? [...TOKENIZER_NAMES] : list(String(flags.tokenizers));
  const allowVersionMismatch = flags.allowVersionMismatch === true;
  const bm25: { k1?: number; b?: number } = {};
  if (flags.k1 !== undefined) bm25.k1 = flags.k1 as number;
  if (flags.b !== undefined) bm25.b = flags.b as number;
  // live flags are checked before the offline stage spends time; the corpus and golden set of the live stage are the bench's choice
  const live = flags.live
    ? liveOptionsFromFlags({
        ...(flags as Record<string, never>),
        golden: undefined,
        corpus: undefined,
        tokenizers: tokenizers.join(','),
      } as never)
    : undefined;
  if (flags.preset !== undefined) {
    if (!flags.live) throw new UserError('--preset needs --live (bench measures a preset in the live stage)', 2);
    if (flags.proxyUrl !== undefined || flags.proxyCmd !== undefined || (flags.system as string[]).length > 0)
      throw new UserError('--preset cannot be combined with --proxy-url, --proxy-cmd or --system (use --system NAME=preset:NAME)', 2);
  }
  if (flags.dashboard === false && flags.comply !== undefined)
    throw new UserError('--comply renders into the dashboard; it cannot be combined with --no-dashboard', 2);
  const log = (m: string) => process.stderr.write(`${termLine(m)}\n`);
  return {
    out: String(flags.out),
    corpus: String(flags.corpus),
    golden: flags.golden as string | undefined,
    extraCorpora: flags.extraCorpus as string[],
    arms: String(flags.arms),
    tokenizers,
    bootstrap: { iterations: flags.bootstrap as number, seed: flags.seed as number },
    bm25,
    retrievers: retrievers(flags.retriever),
    embed: embedOptionsFromFlags(flags),
    topK: flags.topK as number,
    discoveryMenu: String(flags.discoveryMenu),
    resultFixtures: String(flags.resultFixtures),
    allowVersionMismatch,
    offline: flags.offline === true,
    live,
    preset: flags.preset !== undefined && live ? { name: String(flags.preset), explicit: explicitLive(live, command) } : undefined,
    systems: systemOptionsFromFlags(flags),
    explicitSystems: (flags.system as string[]).length > 0,
    dashboard: flags.dashboard !== false,
    // --comply is read and validated before the run (after --out is checked), so a bad file fails now
    extraSections: async () =>
      flags.comply ? [await (await import('../comply/section-input.ts')).complySectionInput(String(flags.comply))] : [],
    argv: process.argv.slice(2),
    log,
  };
}

/** The live options the user set on the command line (they win over a preset's adapter block). */
function explicitLive(o: import('../live/types.ts').LiveOptions, command: Command): Partial<import('../live/types.ts').LiveOptions> {
  const cli = (k: string) => command.getOptionValueSource(k) === 'cli';
  const out: Partial<import('../live/types.ts').LiveOptions> = {};
  const keys: Array<[string, keyof import('../live/types.ts').LiveOptions]> = [
    ['style', 'style'],
    ['discoveryTool', 'discoveryTool'],
    ['callTool', 'callTool'],
    ['callArgsArg', 'callArgsArg'],
    ['callNameArg', 'callNameArg'],
    ['limit', 'limit'],
    ['transport', 'transport'],
  ];
  for (const [flag, key] of keys) if (cli(flag) && o[key] !== undefined) (out as Record<string, unknown>)[key] = o[key];
  if (out.style !== undefined) out.styleSource = '--style';
  const names: Array<['queryArg' | 'limitArg' | 'detailArg', 'query' | 'limit' | 'detail']> = [
    ['queryArg', 'query'],
    ['limitArg', 'limit'],
    ['detailArg', 'detail'],
  ];
  for (const [flag, key] of names)
    if (cli(flag) && o.argNames?.[key] !== undefined) out.argNames = { ...out.argNames, [key]: o.argNames[key] };
  return out;
}

/** the parsed --retriever value (the default is a plain string) */
function retrievers(v: unknown): string[] {
  return Array.isArray(v) ? (v as string[]) : retrieverList(String(v));
}
