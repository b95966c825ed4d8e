/**
 * The offline stage: corpus -> arms -> tokens -> index/score -> economics, producing the
 * offline sections of the report. Gathering (loading corpora) happens once; every arm, index
 * and formula then works on the same in-memory records.
 *
 * Stages (each a named function below, inputs and outputs explicit):
 *   resolveArmList -> loadMenu -> per corpus: gatherCorpus -> per arm: renderAndCount ->
 *   scoreArm (retrieval, once per retriever) -> simulateResponses (economics texts) ->
 *   finishArms (counts -> arm rows, ranking agreement) -> armEconomics (break-even, sessions).
 */
import type { Corpus, GoldenSet, ToolRecord } from '../types.ts';
import { UserError } from '../types.ts';
import { loadCorpus } from '../corpus/load.ts';
import { loadGolden } from '../corpus/golden.ts';
import { loadToolRet } from '../corpus/toolret.ts';
import { corpusHygiene, invalidUtf8Warning, type CorpusHygiene as CorpusHygieneSrc } from '../corpus/hygiene.ts';
import { resolveArms } from '../../arms/registry.ts';
import { type Arm } from '../../arms/types.ts';
import { BASELINE_ARM_ID, SESSION_CALLS } from '../constants.ts';
import { prepareArm, finishArm, rankingAgreement, type ArmCounts, type ArmRunResult, type PreparedArm } from './arm-tokens.ts';
import { startCountWorker } from '../tokens/worker_client.ts';
import { makeCounter, PARALLEL_MIN_CHARS, threadsFromEnv, tokenizerNames, type Counter } from '../tokens/counter.ts';
import type { TokenizerName } from '../tokens/tokenizer.ts';
import { getRetrieverEntry, resolveRetrieverIds, DEFAULT_RETRIEVER_ID } from '../retrieval/registry.ts';
import { scoreArmRetrievers } from './retrieval.ts';
export { retrieverInfo } from './retrieval.ts';
import type { RetrieverOptions } from '../retrieval/types.ts';
import { breakEvenCurve } from '../economics/breakeven.ts';
import { sessionEstimates } from '../economics/session.ts';
import { mean } from '../util/stats.ts';
import { breakEvenRow, curveRows, sessionRows } from '../report/rows.ts';
import type {
  ArmReport,
  CorpusReport,
  CorpusHygiene,
  Economics,
  RankingAgreement,
  RetrievalReport,
} from '../report/types.ts';
import { statSync } from 'node:fs';

export { threadsFromEnv, PARALLEL_MIN_CHARS };

export interface CorpusInput {
  path: string;
  golden?: string;
  /** accept a golden set made for another version of the corpus (bench --allow-version-mismatch) */
  allowVersionMismatch?: boolean;
}

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

export interface StageTiming {
  stage: string;
  corpus_id?: string;
  ms: number;
  rss_mb: number;
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

async function loadInput(input: CorpusInput): Promise<{ corpus: Corpus; golden?: GoldenSet }> {
  let isDir = false;
  try {
    isDir = statSync(input.path).isDirectory();
  } catch {
    /* loadCorpus reports it */
  }
  if (isDir) {
    const tr = await loadToolRet(input.path);
    return { corpus: tr.corpus, golden: input.golden ? await loadGolden(input.golden, tr.corpus, { allowCorpusVersionMismatch: input.allowVersionMismatch }) : tr.golden };
  }
  const corpus = await loadCorpus(input.path);
  return { corpus, golden: input.golden ? await loadGolden(input.golden, corpus, { allowCorpusVersionMismatch: input.allowVersionMismatch }) : undefined };
}

export function toReportHygiene(h: CorpusHygieneSrc): CorpusHygiene {
  return {
    degenerate: {
      count: h.degenerate_descriptions.count,
      rules: h.degenerate_descriptions.rules,
      examples: h.degenerate_descriptions.examples.map((e) => ({ tool_id: e.tool_id, description: e.description, rule: e.rules[0] })),
    },
    schema_size: {
      unit: 'bytes',
      tools_with_schema: h.schema_bytes.n,
      tools_without_schema: h.tools_without_schema,
      min: null,
      mean: h.schema_bytes.mean,
      p50: h.schema_bytes.p50,
      p95: h.schema_bytes.p95,
      max: h.schema_bytes.max,
    },
    duplicate_schemas: {
      distinct: h.duplicate_schemas.distinct,
      tools_sharing: h.duplicate_schemas.tools_sharing,
      groups: h.duplicate_schemas.largest.map((g) => ({ schema_sha256: g.schema_sha256, bytes: g.bytes, tool_count: g.tool_count, tool_ids: g.tool_ids })),
    },
    invalid_utf8: { count: h.invalid_utf8.count, tool_ids: h.invalid_utf8.tool_ids },
  };
}

function toArmReport(r: ArmRunResult, corpus: Corpus): ArmReport {
  const row: ArmReport = {
    arm: r.arm,
    corpus_id: corpus.id,
    description: r.description,
    skipped: r.skipped,
    index_altering: r.altersIndex,
    lower_bound: r.lowerBound,
    retry_rate: r.retryRate,
    skipped_tools: r.skipped_tools,
    skip_examples: r.skipped_examples.map((s) => ({ tool_id: s.tool_id, error: s.error })),
    by_tokenizer: {},
  };
  if (r.skipped) {
    row.skip_reason = r.skip_reason ?? 'skipped';
    return row;
  }
  const pos = new Map(r.tool_ids.map((id, i) => [id, i]));
  for (const t of r.tokens) {
    row.by_tokenizer[t.tokenizer] = {
      total_tokens: { value: t.total_tokens, unit: 'tokens', provenance: 'measured', tokenizer: t.tokenizer, n: r.tool_ids.length },
      mean: t.mean_tokens,
      p50: t.p50_tokens,
      p95: t.p95_tokens,
      max: t.max_tokens,
      savings_vs_baseline_pct: { value: t.savings_vs_baseline_pct ?? 0, unit: '%', provenance: 'computed', tokenizer: t.tokenizer },
      heaviest: t.heaviest_tools,
      per_tool_tokens: corpus.tools.map((tool) => {
        const i = pos.get(tool.tool_id);
        return i === undefined ? null : t.per_tool[i];
      }),
    };
  }
  return row;
}

function timed<T>(timings: StageTiming[], stage: string, corpusId: string | undefined, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  return fn().then((v) => {
    timings.push({ stage, corpus_id: corpusId, ms: performance.now() - t0, rss_mb: process.memoryUsage().rss / 1048576 });
    return v;
  });
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

/** Stage: one corpus loaded once, with its golden set and the report's corpus row (hygiene). */
async function gatherCorpus(input: CorpusInput, timings: StageTiming[]): Promise<{ corpus: Corpus; golden?: GoldenSet; row: CorpusReport }> {
  const { corpus, golden } = await timed(timings, 'load', undefined, () => loadInput(input));
  const hygiene = await timed(timings, 'hygiene', corpus.id, async () => corpusHygiene(corpus));
  const row: CorpusReport = {
    id: corpus.id,
    name: corpus.name,
    version: corpus.version,
    tool_count: corpus.tools.length,
    license: corpus.license,
    ...(corpus.attribution ? { attribution: corpus.attribution } : {}),
    committed: corpus.committed,
    format: corpus.format,
    source: corpus.source,
    tool_ids: corpus.tools.map((t) => t.tool_id),
    hygiene: toReportHygiene(hygiene),
  };
  return { corpus, golden, row };
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
  /** per arm id: query -> ranked tool ids (first retriever), for the simulated responses */
  rankingsByArm: Map<string, Map<string, string[]>>;
  notes: string[];
  econMs: number;
}

/** One arm in flight: its prepared result, pending counts and (later) its economics texts' counts. */
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
  if (arm.meta.id === BASELINE_ARM_ID && prep.result.skipped) throw new Error(`baseline arm skipped on ${cr.corpus.id}: ${prep.result.skip_reason}`);
  if (!prep.done && !(arm.meta.id === BASELINE_ARM_ID || arm.meta.altersIndex)) prep.result.index_docs = []; // never indexed
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
  if (scored.rankings) cr.rankingsByArm.set(r.arm, scored.rankings);
  r.index_docs = []; // indexed; not needed any more (the report does not carry them)
  return scored.rows;
}

/**
 * Stage: the economics texts of one arm. Full menu = the arm's whole listing (counted already);
 * discovery menu = the reference proxy's own tools rendered by the same arm; mean response =
 * the arm's rendering of the top-k tools its index returns per golden query (a simulated
 * retrieve_tools response, labelled as such in the notes). A response depends only on the arm
 * and its top-k ranking: each distinct ranking is rendered and counted once; the mean is
 * still over all queries.
 */
function simulateResponses(cr: CorpusRun, arm: Arm, r: ArmRunResult, scope: string): ArmJob['econ'] {
  const rankings = cr.rankingsByArm.get(r.altersIndex ? r.arm : BASELINE_ARM_ID);
  if (!cr.golden || !rankings) return undefined;
  const t0 = performance.now();
  try {
    let menuText: string;
    try {
      menuText = arm.renderListing(cr.menu.tools);
    } catch (e) {
      cr.notes.push(`economics: arm ${r.arm} cannot render the discovery menu (${(e as Error).message}); no break-even row`);
      return undefined;
    }
    const texts = [menuText];
    const slot = new Map<string, number>();
    const perQuery = cr.golden.queries.map((q) => {
      const ids = (rankings.get(q.query) ?? []).slice(0, cr.opts.responseTopK).filter((id) => cr.byId.has(id));
      const key = ids.join('\n');
      let at = slot.get(key);
      if (at === undefined) {
        at = texts.length;
        slot.set(key, at);
        texts.push(ids.length ? arm.renderListing(ids.map((id) => cr.byId.get(id)!)) : '');
      }
      return at;
    });
    return { perQuery, counts: cr.counter.countAll(texts, scope) };
  } finally {
    cr.econMs += performance.now() - t0;
  }
}

/** Stage: the counts (the worker's may still be running) complete into arm rows and the ranking agreement. */
async function finishArms(cr: CorpusRun, jobs: ArmJob[], results: ArmRunResult[]): Promise<{ arms: ArmReport[]; agreement: RankingAgreement }> {
  const tokNames = cr.counter.names;
  const arms: ArmReport[] = [];
  let baseline: ArmRunResult | undefined;
  for (const { prep, counts } of jobs) {
    const c = counts ? await counts : [];
    const armCounts: ArmCounts[] = c.map((v, i) => ({ tokenizer: tokNames[i], per_tool: v.slice(0, -1), total: v[v.length - 1] }));
    const r = finishArm(prep, armCounts, baseline);
    if (r.arm === BASELINE_ARM_ID) baseline = r;
    arms.push(toArmReport(r, cr.corpus));
    cr.log(`  arm ${r.arm}: ${r.skipped ? r.skip_reason : r.tokens.map((t) => `${t.total_tokens} ${t.tokenizer}`).join(', ')}`);
  }
  const agreement = rankingAgreement(results);
  return {
    arms,
    agreement: { corpus_id: cr.corpus.id, by_tokenizer: Object.fromEntries(agreement.orders.map((o) => [o.tokenizer, o.arms])), same: agreement.same },
  };
}

/** Stage: break-even rows, curves and session estimates of every arm with economics texts, per tokenizer. */
async function armEconomics(cr: CorpusRun, jobs: ArmJob[], out: Economics): Promise<void> {
  const tokNames: readonly TokenizerName[] = cr.counter.names;
  for (const { prep, econ } of jobs) {
    if (!econ) continue;
    const r = prep.result;
    const byTok = await econ.counts;
    tokNames.forEach((tokenizer, ti) => {
      const c = byTok[ti];
      const stats = r.tokens.find((t) => t.tokenizer === tokenizer)!;
      const meanResp = mean(econ.perQuery.map((at) => c[at]));
      const discovery = c[0];
      const key = { corpus_id: cr.corpus.id, arm: r.arm, tokenizer };
      const curve = breakEvenCurve({ fullMenuTokens: stats.total_tokens, discoveryMenuTokens: discovery, meanResponseTokens: meanResp });
      out.break_even.push(breakEvenRow(key, curve.break_even));
      out.curves.push(...curveRows(key, curve));
      out.session_estimates.push(...sessionRows(key, sessionEstimates({ menuTokens: discovery, meanResponseTokens: meanResp, retryRate: r.retryRate, calls: SESSION_CALLS })));
    });
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
      job.econ = simulateResponses(cr, arm, r, scope);
    } finally {
      cr.counter.endScope();
    }
  }
  const finished = await timed(cr.timings, 'arms:finish', cr.corpus.id, () => finishArms(cr, jobs, results));
  out.arms.push(...finished.arms);
  out.ranking_agreement.push(finished.agreement);
  if (!cr.golden) return;
  const t0 = performance.now();
  await armEconomics(cr, jobs, out.economics);
  cr.timings.push({ stage: 'economics', corpus_id: cr.corpus.id, ms: cr.econMs + performance.now() - t0, rss_mb: process.memoryUsage().rss / 1048576 });
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
      corpus, golden, byId: new Map(corpus.tools.map((t) => [t.tool_id, t])), menu, retrieverIds, opts, counter, timings, log,
      rankingsByArm: new Map(), notes: out.notes, econMs: 0,
    };
    await profileCorpus(cr, arms, out);
  }
  if (!opts.corpusOnly) out.notes.push(
    `Offline economics: full menu = the arm's whole listing of the corpus; discovery menu = the reference proxy's own ${menu.tools.length} tools (${menu.version}) rendered by the same arm; mean response = the arm's rendering of the top ${opts.responseTopK} tools its ${getRetrieverEntry(retrieverIds[0]).label} index returns per golden query (a simulated retrieve_tools response, not a wire measurement; see the live section for measured responses).`,
  );
  out.threads = counter.threads;
  return out;
}
