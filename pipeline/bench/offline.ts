/**
 * The offline stage: corpus -> arms -> tokens -> index/score -> economics, producing the
 * offline sections of the report. Gathering (loading corpora) happens once; every arm, index
 * and formula then works on the same in-memory records. This file is the orchestration; each
 * job is its own module (see README.md):
 *
 *   resolveArmList -> loadMenu -> per corpus: gatherCorpus (gather.ts) -> per arm:
 *   renderAndCount (arm-tokens.ts) -> scoreArm (retrieval.ts, once per retriever) ->
 *   simulateResponses (responses.ts, from rankings(arm)) -> finishArms (counts -> arm rows and
 *   ranking agreement, arm-rows.ts) -> armEconomics (economics.ts, from counts(arm) and the
 *   responses' counts).
 */
import type { Corpus, GoldenSet, ToolRecord } from '../types.ts';
import { UserError } from '../types.ts';
import { loadCorpus } from '../corpus/load.ts';
import { invalidUtf8Warning } from '../corpus/hygiene.ts';
import { resolveArms } from '../../arms/registry.ts';
import type { Arm } from '../../arms/types.ts';
import { BASELINE_ARM_ID } from '../constants.ts';
import { prepareArm, finishArm, type ArmCounts, type ArmRunResult, type PreparedArm } from './arm-tokens.ts';
import { startCountWorker } from '../tokens/worker_client.ts';
import { makeCounter, PARALLEL_MIN_CHARS, threadsFromEnv, tokenizerNames, type Counter } from '../tokens/counter.ts';
import { getRetrieverEntry, resolveRetrieverIds, DEFAULT_RETRIEVER_ID } from '../retrieval/index.ts';
import { scoreArmRetrievers } from './retrieval.ts';
import type { RetrieverOptions } from '../retrieval/index.ts';
import { gatherCorpus, type CorpusInput } from './gather.ts';
import { agreementRow, toArmReport } from './arm-rows.ts';
import { simulateResponses } from './responses.ts';
import { armEconomics } from './economics.ts';
import { stageTiming, timed, type StageTiming } from './timings.ts';
import { boundTally, tokenBoundsWarning, type BoundTally } from './token-bounds.ts';
import type { ArmReport, CorpusReport, Economics, RankingAgreement, RetrievalReport } from '../report/index.ts';

export type { CorpusInput } from './gather.ts';
export type { StageTiming } from './timings.ts';
export { threadsFromEnv, PARALLEL_MIN_CHARS };

export interface OfflineOptions {
  corpora: CorpusInput[];
  /** the discovery menu (the reference proxy's own tools) used for offline break-even */
  discoveryMenu: string;
  arms: readonly string[] | 'all';
  tokenizers: readonly string[] | 'all';
  bootstrap: { iterations: number; seed: number };
  /**
   * retriever ids (pipeline/retrieval/registry.ts) scored on every indexed arm, default
   * [DEFAULT_RETRIEVER_ID]; the first one's rankings feed the simulated discovery responses
   */
  retrievers?: readonly string[];
  /** options for the retrievers (e.g. BM25 k1, b); each retriever validates its own */
  retrieverOptions?: RetrieverOptions;
  /** tools per simulated discovery response (the proxy's default limit) */
  responseTopK: number;
  /** only load and describe the corpora (hygiene), no arms/retrieval/economics: for live-only runs */
  corpusOnly?: boolean;
  /**
   * count the second tokenizer in a worker thread while the main thread counts the first
   * (default true; env MCPGAUGE_THREADS=1 also forces one thread). Results are identical.
   */
  parallel?: boolean;
  /**
   * a counting scope (one arm's texts, one set of responses) goes to the worker only from this
   * many characters on (default PARALLEL_MIN_CHARS); the worker is started on first such scope,
   * so small corpora stay single-threaded and do not pay for a second V8 heap
   */
  parallelMinChars?: number;
  log?: (msg: string) => void;
}

export interface OfflineResult {
  corpora: CorpusReport[];
  arms: ArmReport[];
  ranking_agreement: RankingAgreement[];
  retrieval: RetrievalReport[];
  economics: Economics;
  notes: string[];
  timings: StageTiming[];
  /** threads that counted tokens: 2 = the second tokenizer ran in a worker thread */
  threads: number;
  /** loaded corpora and golden sets, for the live stage */
  loaded: { corpus: Corpus; golden?: GoldenSet }[];
}

export async function runOffline(opts: OfflineOptions): Promise<OfflineResult> {
  const threads = threadsFromEnv();
  const names = tokenizerNames(opts.tokenizers);
  const parallel = opts.parallel !== false && threads !== 1 && names.length > 1 && !opts.corpusOnly;
  const counter = makeCounter(names, parallel ? startCountWorker : null, opts.parallelMinChars ?? PARALLEL_MIN_CHARS);
  try {
    return await runOfflineWith(opts, counter);
  } finally {
    await counter.close();
  }
}

/** Stage: the arms to run, baseline first (it is the denominator of every saving). */
function resolveArmList(opts: OfflineOptions): Arm[] {
  const arms: Arm[] = resolveArms(opts.arms);
  if (!opts.corpusOnly && !arms.some((a) => a.meta.id === BASELINE_ARM_ID)) {
    throw new UserError(`--arms must include ${BASELINE_ARM_ID} (it is the savings baseline)`);
  }
  return arms.sort((a, b) => (a.meta.id === BASELINE_ARM_ID ? -1 : b.meta.id === BASELINE_ARM_ID ? 1 : a.meta.id < b.meta.id ? -1 : 1));
}

/** What one corpus's arms share while they run. */
interface CorpusRun {
  corpus: Corpus;
  golden?: GoldenSet;
  byId: Map<string, ToolRecord>;
  menu: Corpus;
  retrieverIds: string[];
  opts: OfflineOptions;
  counter: Counter;
  timings: StageTiming[];
  log: (msg: string) => void;
  /** computed once per indexed arm (scoreArm): query -> ranked tool ids of the first retriever */
  rankingsByIndex: Map<string, Map<string, string[]>>;
  notes: string[];
  econMs: number;
  /** where counting cut an over-long run (token-bounds.ts) */
  bounds: BoundTally;
}

/** One arm in flight: its prepared result, pending counts and (later) its responses' counts. */
interface ArmJob {
  prep: PreparedArm;
  counts: Promise<number[][]> | null;
  econ?: { perQuery: number[]; counts: Promise<number[][]> };
}

/**
 * Stage: render one arm (prepareArm) and start counting its texts (listing + every tool). The
 * texts then live only in the counting job; an arm that is not indexed drops its index docs.
 */
async function renderAndCount(cr: CorpusRun, arm: Arm, scope: string, baselineRaw: ArmRunResult | undefined): Promise<ArmJob> {
  // the baseline check needs only the corpus identity, so the unfinished baseline result serves
  const prep = await prepareArm(arm, cr.corpus, baselineRaw);
  if (arm.meta.id === BASELINE_ARM_ID && prep.result.skipped)
    throw new Error(`baseline arm skipped on ${cr.corpus.id}: ${prep.result.skip_reason}`);
  if (!prep.done && !(arm.meta.id === BASELINE_ARM_ID || arm.meta.altersIndex)) prep.result.index_docs = []; // never indexed
  if (!prep.done) cr.bounds.add(arm.meta.id, [...prep.texts, prep.listing]);
  const counts = prep.done ? null : cr.counter.countAll([...prep.texts, prep.listing], scope);
  prep.texts = [];
  prep.listing = '';
  return { prep, counts };
}

/**
 * Stage: index the arm's docs and score the golden set, once per retriever (bench/retrieval.ts:
 * cross-validated when a retriever has data-chosen parameters, with costs and the paired
 * difference against the default); rows keyed by (corpus, arm, retriever).
 */
async function scoreArm(cr: CorpusRun, r: ArmRunResult): Promise<RetrievalReport[]> {
  const { corpus, golden, opts } = cr;
  const scored = await scoreArmRetrievers({
    corpusId: corpus.id,
    corpusVersion: corpus.version,
    arm: r.arm,
    docs: r.index_docs,
    golden,
    retrieverIds: cr.retrieverIds,
    retrieverOptions: opts.retrieverOptions,
    bootstrap: opts.bootstrap,
    depth: Math.max(10, opts.responseTopK),
    timed: (stage, fn) => timed(cr.timings, stage, corpus.id, fn),
    log: cr.log,
  });
  if (scored.rankings) cr.rankingsByIndex.set(r.arm, scored.rankings);
  r.index_docs = []; // indexed; not needed any more (the report does not carry them)
  return scored.rows;
}

/** rankings(arm): an arm that alters the index searches its own; every other arm the baseline's. */
function rankingsOf(cr: CorpusRun, r: ArmRunResult): Map<string, string[]> | undefined {
  return cr.rankingsByIndex.get(r.altersIndex ? r.arm : BASELINE_ARM_ID);
}

/**
 * Stage: the arm's simulated responses (responses.ts) from rankings(arm), and their counting
 * started in the arm's scope. None without a golden set or rankings; a note when the arm cannot
 * render the discovery menu.
 */
function startResponses(cr: CorpusRun, arm: Arm, r: ArmRunResult, scope: string): ArmJob['econ'] {
  const rankings = rankingsOf(cr, r);
  if (!cr.golden || !rankings) return undefined;
  const t0 = performance.now();
  try {
    const sim = simulateResponses(arm, {
      rankings,
      queries: cr.golden.queries.map((q) => q.query),
      tools: cr.byId,
      menu: cr.menu.tools,
      topK: cr.opts.responseTopK,
    });
    if ('note' in sim) {
      cr.notes.push(sim.note);
      return undefined;
    }
    cr.bounds.add(arm.meta.id, sim.texts);
    return { perQuery: sim.perQuery, counts: cr.counter.countAll(sim.texts, scope) };
  } finally {
    cr.econMs += performance.now() - t0;
  }
}

/** Stage: the counts (the worker's may still be running) complete into arm rows and the ranking agreement. */
async function finishArms(
  cr: CorpusRun,
  jobs: ArmJob[],
  results: ArmRunResult[],
): Promise<{ arms: ArmReport[]; agreement: RankingAgreement }> {
  const tokNames = cr.counter.names;
  const arms: ArmReport[] = [];
  let baseline: ArmRunResult | undefined;
  for (const { prep, counts } of jobs) {
    const c = counts ? await counts : [];
    // renderAndCount counted [...tool texts, listing]
    const armCounts: ArmCounts[] = c.map((v, i) => ({ tokenizer: tokNames[i], per_tool: v.slice(0, -1), total: v[v.length - 1] }));
    const r = finishArm(prep, armCounts, baseline);
    if (r.arm === BASELINE_ARM_ID) baseline = r;
    arms.push(toArmReport(r, cr.corpus));
    cr.log(`  arm ${r.arm}: ${r.skipped ? r.skip_reason : r.tokens.map((t) => `${t.total_tokens} ${t.tokenizer}`).join(', ')}`);
  }
  return { arms, agreement: agreementRow(cr.corpus.id, results) };
}

/**
 * Stage: economics.ts per arm with responses, from its declared inputs: counts(arm) (the
 * finished arm's listing totals) and its responses' counts, tokenizer by tokenizer.
 */
async function economicsRows(cr: CorpusRun, jobs: ArmJob[], out: Economics): Promise<void> {
  const tokNames = cr.counter.names;
  for (const { prep, econ } of jobs) {
    if (!econ) continue;
    const r = prep.result;
    const byTok = await econ.counts;
    const rows = armEconomics({
      corpusId: cr.corpus.id,
      arm: r.arm,
      retryRate: r.retryRate,
      perQuery: econ.perQuery,
      byTokenizer: tokNames.map((tokenizer, ti) => ({
        tokenizer,
        fullMenuTokens: r.tokens.find((t) => t.tokenizer === tokenizer)!.total_tokens,
        responseTokens: byTok[ti],
      })),
    });
    out.break_even.push(...rows.break_even);
    out.curves.push(...rows.curves);
    out.session_estimates.push(...rows.session_estimates);
  }
}

/**
 * Per arm, in order: render + count, score, simulate responses. Counting runs on this thread
 * for the first tokenizer and in the worker for the others (for all of them when the worker is
 * idle), and the worker keeps counting while this thread renders and scores. Each arm's texts
 * share one counting memo (scope), dropped when the arm is done. Report rows come out in the
 * same order as a stage-by-stage run.
 */
async function profileCorpus(cr: CorpusRun, arms: Arm[], out: OfflineResult): Promise<void> {
  const results: ArmRunResult[] = [];
  const jobs: ArmJob[] = [];
  let baselineRaw: ArmRunResult | undefined;
  for (const arm of arms) {
    const scope = `${cr.corpus.id}\u0000${arm.meta.id}`;
    const job = await timed(cr.timings, `arm:${arm.meta.id}`, cr.corpus.id, () => renderAndCount(cr, arm, scope, baselineRaw));
    if (arm.meta.id === BASELINE_ARM_ID) baselineRaw = job.prep.result;
    results.push(job.prep.result);
    jobs.push(job);
    const r = job.prep.result;
    if (r.skipped) continue;
    try {
      if (r.arm === BASELINE_ARM_ID || r.altersIndex) out.retrieval.push(...(await scoreArm(cr, r)));
      job.econ = startResponses(cr, arm, r, scope);
    } finally {
      cr.counter.endScope();
    }
  }
  const finished = await timed(cr.timings, 'arms:finish', cr.corpus.id, () => finishArms(cr, jobs, results));
  out.arms.push(...finished.arms);
  out.ranking_agreement.push(finished.agreement);
  if (!cr.golden) return;
  const t0 = performance.now();
  await economicsRows(cr, jobs, out.economics);
  cr.timings.push(stageTiming('economics', cr.corpus.id, cr.econMs + performance.now() - t0));
}

async function runOfflineWith(opts: OfflineOptions, counter: Counter): Promise<OfflineResult> {
  const log = opts.log ?? (() => {});
  const timings: StageTiming[] = [];
  if (opts.corpora.length === 0) throw new UserError('no corpus given (--corpus FILE)');
  const retrieverIds = resolveRetrieverIds(opts.retrievers ?? [DEFAULT_RETRIEVER_ID]);
  const arms = resolveArmList(opts);
  // one-time set-up a retriever needs (embed_static: fetch the model on first use; never throws)
  if (!opts.corpusOnly) for (const id of retrieverIds) await getRetrieverEntry(id).prepare?.(opts.retrieverOptions, log);
  const menu = await timed(timings, 'load-discovery-menu', undefined, () => loadCorpus(opts.discoveryMenu));
  const out: OfflineResult = {
    corpora: [],
    arms: [],
    ranking_agreement: [],
    retrieval: [],
    economics: { break_even: [], session_estimates: [], curves: [] },
    notes: [],
    timings,
    threads: 1, // set at the end: the worker starts on the first large scope
    loaded: [],
  };
  const seen = new Set<string>();
  for (const input of opts.corpora) {
    const { corpus, golden, row } = await gatherCorpus(input, timings);
    if (seen.has(corpus.id)) throw new UserError(`${input.path}: corpus id ${corpus.id} given twice`);
    seen.add(corpus.id);
    out.loaded.push({ corpus, golden });
    log(`corpus ${corpus.id}: ${corpus.tools.length} tools${golden ? `, ${golden.queries.length} golden queries` : ', no golden set'}`);
    const utf8 = row.hygiene.invalid_utf8 && invalidUtf8Warning(corpus.id, row.hygiene.invalid_utf8);
    if (utf8) log(utf8);
    out.corpora.push(row);
    if (opts.corpusOnly) continue;
    const cr: CorpusRun = {
      corpus,
      golden,
      byId: new Map(corpus.tools.map((t) => [t.tool_id, t])),
      menu,
      retrieverIds,
      opts,
      counter,
      timings,
      log,
      rankingsByIndex: new Map(),
      notes: out.notes,
      econMs: 0,
      bounds: boundTally(corpus),
    };
    await profileCorpus(cr, arms, out);
    const tb = cr.bounds.result();
    if (tb) {
      row.token_bounds = tb;
      log(tokenBoundsWarning(corpus.id, tb));
    }
  }
  if (!opts.corpusOnly)
    out.notes.push(
      `Offline economics: full menu = the arm's whole listing of the corpus; discovery menu = the reference proxy's own ${menu.tools.length} tools (${menu.version}) rendered by the same arm; mean response = the arm's rendering of the top ${opts.responseTopK} tools its ${getRetrieverEntry(retrieverIds[0]).label} index returns per golden query (a simulated retrieve_tools response, not a wire measurement; see the live section for measured responses).`,
    );
  out.threads = counter.threads;
  return out;
}
