/**
 * `runBench(options)`: the whole `mcpgauge bench` run from options the CLI parsed
 * (`pipeline/cli/bench.ts` only reads flags). Phases, in order: check the inputs before any work
 * (the --out folder, the extra dashboard sections, the input files, a --preset), choose the
 * corpus and golden set of the live stage, the offline stage, the result arms, the live stage
 * (embedded default or a preset), the systems stage, then assemble and write the report.
 * Paths are taken as given and resolved here (the report records some of them as given).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { JsonValue } from '../types.ts';
import { UserError } from '../types.ts';
import { DEFAULT_CORPUS, DEFAULT_GOLDEN } from '../constants.ts';
import { assertInputFile, assertOutputDir } from '../util/fs.ts';
import type { LiveOptions } from '../live/types.ts';
import type { Report, ReportSection, SectionInput, WrittenReport } from '../report/index.ts';
import type { RetrieverOptions } from '../retrieval/index.ts';
import type { CorpusInput, OfflineResult } from './offline.ts';
import { runSystemStages, type SystemRunOptions } from './systems-stage.ts';

export interface BenchOptions {
  /** output folder (checked writable before any work) */
  out: string;
  /** --corpus, as given */
  corpus: string;
  /** --golden as given: a file, 'none' (no scoring), or undefined (the default corpus's own set) */
  golden?: string;
  /** --extra-corpus files, as given */
  extraCorpora: string[];
  /** --arms as given: 'all' or a comma list (the report records it verbatim) */
  arms: string;
  tokenizers: string[];
  bootstrap: { iterations: number; seed: number };
  /** BM25 k1 / b overrides */
  bm25: { k1?: number; b?: number };
  /** retriever ids to score; the first feeds the simulated responses and the embedded proxy */
  retrievers: string[];
  /** the embeddings endpoint options ({} when not given) */
  embed: RetrieverOptions;
  topK: number;
  discoveryMenu: string;
  /** result fixtures file as given, or 'none' */
  resultFixtures: string;
  allowVersionMismatch: boolean;
  offline: boolean;
  /** the live stage's options (undefined = no live stage); corpus and golden set are chosen here */
  live?: LiveOptions;
  /** measure this preset in the live stage, with the live options the user set explicitly */
  preset?: { name: string; explicit: Partial<LiveOptions> };
  systems: SystemRunOptions;
  /** --system was given (side-by-side blocks; --scale alone sweeps without them) */
  explicitSystems: boolean;
  /** write dashboard.html (false: --no-dashboard, report.json and tables/ only, no chart worker) */
  dashboard: boolean;
  /** the dashboard's section list (pipeline/sections.ts, above this folder) */
  sections: readonly ReportSection<Report>[];
  /** extra dashboard sections (e.g. a comply report), read after --out is checked */
  extraSections?: () => Promise<SectionInput[]>;
  /** the command line, recorded in the report */
  argv: string[];
  log: (m: string) => void;
}

export interface BenchResult {
  report: Report;
  written: WrittenReport;
}

/** Runs the bench and writes its report; the report of a failed live stage is written and marked failed. */
export async function runBench(o: BenchOptions): Promise<BenchResult> {
  const face = await import('../report/index.ts');
  const { writeReport } = await face.loadReportWriter();
  const { assembleReport } = await import('./report.ts');
  const extraSections = await checkInputs(o);
  return runStages(o, extraSections, writeReport, face.summaryLines, assembleReport);
}

type ReportFace = typeof import('../report/index.ts');
type ReportWriter = Awaited<ReturnType<ReportFace['loadReportWriter']>>;

/** The stages after the input checks, then the report written and its summary logged. */
async function runStages(
  o: BenchOptions,
  extraSections: SectionInput[],
  writeReport: ReportWriter['writeReport'],
  summaryLines: ReportFace['summaryLines'],
  assembleReport: typeof import('./report.ts').assembleReport,
): Promise<BenchResult> {
  const plan = planCorpora(o);
  const live = o.live ? { ...o.live, ...plan.liveTarget, ...(o.allowVersionMismatch ? { allowVersionMismatch: true } : {}) } : undefined;
  const offline = await offlineStage(o, plan.corpora, live !== undefined);
  const results = await resultsStage(o);
  const liveReport = live && !o.explicitSystems ? await liveStage(o, live) : undefined;
  const staged = live ? await runSystemStages(o.systems, { ...live, bootstrap: o.bootstrap, log: o.log }, o.explicitSystems) : {};
  const options = recordedOptions(o, plan.corpora);
  const report = assembleReport({
    offline,
    live: liveReport,
    results,
    ...staged,
    tokenizers: o.tokenizers,
    options,
    argv: o.argv,
    secrets: live?.apiKey ? [live.apiKey] : [],
  });
  const written = await writeReport(report, resolve(o.out), o.sections, extraSections, { dashboard: o.dashboard });
  for (const line of summaryLines(report, o.sections)) o.log(line);
  // the report is written and marked failed; the caller's exit code says so too
  if (report.live?.status?.state === 'failed') o.log(`live stage FAILED: ${report.live.status.reason}`);
  return { report, written };
}

/** Everything that can fail before the run fails now, in one line: --out, extra sections, input files, the preset. */
async function checkInputs(o: BenchOptions): Promise<SectionInput[]> {
  assertOutputDir(resolve(o.out), '--out');
  const extra = o.extraSections ? await o.extraSections() : [];
  // a FIFO, a device or a file over the size limit fails now in one line, not after the run
  // (a missing path or a folder is left to its loader, which names what it expected)
  const golden = goldenPath(o);
  for (const p of [
    resolve(o.corpus),
    ...o.extraCorpora.map((x) => resolve(x)),
    golden,
    resolve(o.discoveryMenu),
    o.resultFixtures === 'none' ? undefined : resolve(o.resultFixtures),
  ]) {
    if (p !== undefined && existsSync(p) && !statSync(p).isDirectory()) assertInputFile(p, 'a JSON file');
  }
  if (!o.offline && !o.live) throw new UserError('--no-offline needs --live (nothing to do)');
  if (o.preset) (await import('../adapter/preset-file.ts')).loadPreset(o.preset.name);
  return extra;
}

/** the golden set of --corpus: none, the given file, or the default corpus's own */
function goldenPath(o: BenchOptions): string | undefined {
  if (o.golden === 'none') return undefined;
  if (o.golden) return resolve(o.golden);
  return resolve(o.corpus) === DEFAULT_CORPUS ? DEFAULT_GOLDEN : undefined;
}

/**
 * The corpora of the report and the live stage's corpus + golden set. The live stage scores the
 * proxy on a golden set; a corpus without one falls back to the default corpus + golden set,
 * which then joins the report's corpora so its rows resolve.
 */
function planCorpora(o: BenchOptions): { corpora: CorpusInput[]; liveTarget: Partial<LiveOptions> } {
  const corpusPath = resolve(o.corpus);
  const golden = goldenPath(o);
  const mismatch = o.allowVersionMismatch ? { allowVersionMismatch: true } : {};
  const corpora: CorpusInput[] = [{ path: corpusPath, golden, ...mismatch }, ...o.extraCorpora.map((p) => ({ path: resolve(p) }))];
  if (!o.live) return { corpora, liveTarget: {} };
  if (o.golden === 'none') {
    // honoured: no discovery queries; the live corpus only names the report's corpus row
    o.log('live stage: --golden none: no golden set, so no discovery queries; menus and the latency of a cheap call (tools/list) only');
    return { corpora, liveTarget: { corpusFile: corpusPath, noGolden: true } };
  }
  if (!golden) {
    if (corpusPath !== DEFAULT_CORPUS) corpora.push({ path: DEFAULT_CORPUS, golden: DEFAULT_GOLDEN });
    o.log(`live stage: ${corpusPath} has no golden set; scoring the proxy on ${DEFAULT_GOLDEN}`);
    return { corpora, liveTarget: { corpusFile: DEFAULT_CORPUS, goldenFile: DEFAULT_GOLDEN } };
  }
  return { corpora, liveTarget: { corpusFile: corpusPath, goldenFile: golden } };
}

/** the offline stage (corpus only when it is skipped but the live stage needs the corpus rows) */
async function offlineStage(o: BenchOptions, corpora: CorpusInput[], live: boolean): Promise<OfflineResult | undefined> {
  if (!o.offline && !live) return undefined;
  const { runOffline } = await import('./offline.ts');
  const t0 = performance.now();
  const offline = await runOffline({
    corpusOnly: !o.offline,
    corpora,
    discoveryMenu: resolve(o.discoveryMenu),
    arms: o.arms === 'all' ? 'all' : list(o.arms),
    tokenizers: o.tokenizers,
    bootstrap: o.bootstrap,
    retrievers: o.retrievers,
    retrieverOptions: { ...o.bm25, ...o.embed },
    responseTopK: o.topK,
    log: o.log,
  });
  if (o.offline) o.log(`offline stage: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return offline;
}

/** the result arms over the result fixtures (offline only) */
async function resultsStage(o: BenchOptions) {
  if (!o.offline || o.resultFixtures === 'none') return undefined;
  const { runResultsStage } = await import('../toolresults/stage.ts');
  const { resolveTokenizers } = await import('../tokens/tokenizer.ts');
  const results = runResultsStage({ file: resolve(o.resultFixtures), tokenizers: resolveTokenizers(o.tokenizers) });
  o.log(
    `result arms: ${results.fixture_set.fixture_count} fixtures (${results.fixture_set.tabular_count} tabular) x ${results.arms.length} arms`,
  );
  return results;
}

/** the live stage: a preset, or the embedded default / the proxy the flags name */
async function liveStage(o: BenchOptions, live: LiveOptions) {
  const t1 = performance.now();
  o.log('live stage: starting');
  let report;
  if (o.preset) {
    const { runPresetLive } = await import('../systems/live.ts');
    report = await runPresetLive(o.preset.name, { ...live, bootstrap: o.bootstrap, log: o.log }, o.preset.explicit);
  } else {
    // the live stage (MCP client SDK, zod) loads only when it runs; the embedded proxy runs the
    // first retriever (the one that also feeds the simulated responses)
    const { runLive } = await import('../live/live-stage.ts');
    report = await runLive({ ...live, bootstrap: o.bootstrap, log: o.log, retriever: o.retrievers[0], retrieverOptions: o.embed });
  }
  // error rows = failed measured calls; live.errors also holds notes that are not failed calls (e.g. LAP's divergence warning)
  const failed = report.status?.failed_calls ?? report.responses.filter((x) => !x.ok).length;
  const notes = report.errors.length - failed;
  o.log(
    `live stage: ${((performance.now() - t1) / 1000).toFixed(1)} s, ${failed} error row(s)${notes > 0 ? `, ${notes} other problem(s) noted in live.errors` : ''}`,
  );
  return report;
}

/** the run's options as the report records them (JSON values only) */
function recordedOptions(o: BenchOptions, corpora: CorpusInput[]): { [k: string]: JsonValue } {
  const s = o.systems;
  return JSON.parse(
    JSON.stringify({
      corpora,
      arms: o.arms,
      tokenizers: o.tokenizers,
      bootstrap: o.bootstrap,
      bm25: o.bm25,
      retrievers: o.retrievers,
      ...(o.embed.url ? { embed: o.embed } : {}),
      top_k: o.topK,
      live: o.live !== undefined,
      offline: o.offline,
      result_fixtures: o.offline ? o.resultFixtures : undefined,
      ...(s.systems ? { systems: s.systems.map((x) => `${x.name}=${x.spec}`) } : {}),
      ...(s.scale ? { scale: s.scale } : {}),
    }),
  );
}

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
