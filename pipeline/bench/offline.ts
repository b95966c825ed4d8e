/**
 * The offline stage: corpus -> arms -> tokens -> BM25 index/score -> economics, producing the
 * offline sections of the report. Gathering (loading corpora) happens once; every arm, index
 * and formula then works on the same in-memory records.
 */
import type { Corpus, GoldenSet, ToolRecord } from '../types.ts';
import { UserError } from '../types.ts';
import { loadCorpus } from '../corpus/load.ts';
import { loadGolden } from '../corpus/golden.ts';
import { loadToolRet } from '../corpus/toolret.ts';
import { corpusHygiene, type CorpusHygiene as CorpusHygieneSrc } from '../corpus/hygiene.ts';
import { resolveArms } from '../arms/registry.ts';
import { BASELINE_ARM_ID, type Arm } from '../arms/types.ts';
import { prepareArm, finishArm, rankingAgreement, type ArmCounts, type ArmRunResult, type PreparedArm } from '../arms/run.ts';
import { getTokenizer, isTokenizerName, TOKENIZER_NAMES, type TokenizerName } from '../tokens/tokenizer.ts';
import { startCountWorker, type CountWorker } from './worker_client.ts';
import { createChunkCounter, type ChunkCounter } from './worker_count.ts';
import { getRetrieverEntry, resolveRetrieverIds, DEFAULT_RETRIEVER_ID } from '../retrieval/registry.ts';
import { scoreArmRetrievers } from './retrieval.ts';
export { retrieverInfo, toMetrics, toQueryRow } from './retrieval.ts';
import type { RetrieverMeta, RetrieverOptions } from '../retrieval/types.ts';
import { breakEvenCurve } from '../economics/breakeven.ts';
import { sessionEstimates } from '../economics/session.ts';
import { mean } from '../util/stats.ts';
import type {
  ArmReport,
  CorpusReport,
  CorpusHygiene,
  Economics,
  QueryRow,
  RankingAgreement,
  RetrievalMetrics,
  RetrievalReport,
  RetrieverInfo,
} from '../report/types.ts';
import { statSync } from 'node:fs';

export interface CorpusInput {
  path: string;
  golden?: string;
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

export const SESSION_CALLS = [1, 3, 5, 10];

async function loadInput(input: CorpusInput): Promise<{ corpus: Corpus; golden?: GoldenSet }> {
  let isDir = false;
  try {
    isDir = statSync(input.path).isDirectory();
  } catch {
    /* loadCorpus reports it */
  }
  if (isDir) {
    const tr = await loadToolRet(input.path);
    return { corpus: tr.corpus, golden: input.golden ? await loadGolden(input.golden, tr.corpus) : tr.golden };
  }
  const corpus = await loadCorpus(input.path);
  return { corpus, golden: input.golden ? await loadGolden(input.golden, corpus) : undefined };
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

/** Tokenizer names in report order, validated like resolveTokenizers (without loading them). */
function tokenizerNames(list: readonly string[] | 'all'): TokenizerName[] {
  const names = list === 'all' || (list.length === 1 && list[0] === 'all') ? TOKENIZER_NAMES : list;
  if (names.length === 0) throw new UserError(`no tokenizer given (valid: ${TOKENIZER_NAMES.join(', ')})`);
  const out: TokenizerName[] = [];
  for (const n of names) {
    if (!isTokenizerName(n)) getTokenizer(n); // throws the UserError naming it
    else if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** MCPGAUGE_THREADS: unset = default (2 threads when useful); a positive integer; 1 = single thread. */
export function threadsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const v = env.MCPGAUGE_THREADS;
  if (v === undefined || v === '') return undefined;
  if (!/^[1-9][0-9]*$/.test(v)) throw new UserError(`MCPGAUGE_THREADS must be a positive integer (1 = single thread), got "${v}"`);
  return Number(v);
}

/**
 * Exact token counts of many texts under every tokenizer. With a worker, the first tokenizer is
 * counted on the calling thread and the others in the worker (posted first, so both run at once).
 * The returned promise is pre-handled (no unhandled-rejection crash while the caller is busy);
 * awaiting it still throws the worker's error.
 */
interface Counter {
  names: TokenizerName[];
  threads: number;
  /** `scope`: texts of one scope share a memo; a new scope drops the previous one */
  countAll(texts: string[], scope: string): Promise<number[][]>;
  /** drop this thread's memo now (it keeps the scope's texts alive) */
  endScope(): void;
}

/** a scope whose first job has at least this many characters may go wholly to an idle worker */
const ALL_REMOTE_MIN_CHARS = 4_000_000;
/** below this many characters a scope is counted on this thread only (see parallelMinChars) */
export const PARALLEL_MIN_CHARS = 2_000_000;

function makeCounter(names: TokenizerName[], startWorker: (() => CountWorker) | null, minChars: number): Counter & { close(): Promise<void> } {
  let worker: CountWorker | null = null;
  let used = false;
  // one memo per tokenizer for the whole run: a line counted once is not tokenized again
  const local = new Map<TokenizerName, ChunkCounter>();
  const counterFor = (n: TokenizerName) => {
    let c = local.get(n);
    if (!c) local.set(n, (c = createChunkCounter(getTokenizer(n))));
    return c;
  };
  let lastScope: string | undefined;
  let allRemote = false;
  let useWorker = false;
  return {
    names,
    get threads() {
      return used ? 2 : 1;
    },
    async close() {
      await worker?.close();
    },
    countAll(texts, scope) {
      if (scope !== lastScope) {
        for (const c of local.values()) c.reset();
        let scopeChars = 0;
        for (const t of texts) scopeChars += t.length;
        useWorker = startWorker !== null && scopeChars >= minChars;
        if (useWorker && !worker) worker = startWorker!();
        if (useWorker) used = true;
        // Balance: this thread also renders and scores, so when the worker has nothing queued
        // at the start of a large scope it counts every tokenizer of that scope (small scopes
        // are not worth loading a second tokenizer, ~20 MB, in the worker). The split only
        // decides where a count runs, never its value. A scope stays on the threads it started
        // on, so its memo is reused.
        allRemote = useWorker && worker !== null && worker.pending() === 0 && scopeChars >= ALL_REMOTE_MIN_CHARS;
      }
      lastScope = scope;
      const remote = (i: number) => useWorker && worker !== null && (i > 0 || allRemote);
      // one message for all remote tokenizers: the texts are copied once
      const remoteNames = names.filter((_, i) => remote(i));
      const job = worker && useWorker && remoteNames.length ? worker.countMany(remoteNames, texts, scope) : Promise.resolve([]);
      job.catch(() => {}); // handled when awaited below; a local error may come first
      const localCounts = names.map((n, i) => {
        if (remote(i)) return null;
        const tk = counterFor(n);
        return texts.map((t) => tk.count(t));
      });
      const all = job.then((rc) => {
        let k = 0;
        return localCounts.map((c) => c ?? rc[k++]);
      });
      all.catch(() => {});
      return all;
    },
    endScope() {
      for (const c of local.values()) c.reset();
      lastScope = undefined;
    },
  };
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

async function runOfflineWith(opts: OfflineOptions, counter: Counter): Promise<OfflineResult> {
  const log = opts.log ?? (() => {});
  const timings: StageTiming[] = [];
  if (opts.corpora.length === 0) throw new UserError('no corpus given (--corpus FILE)');
  const tokNames = counter.names;
  const retrieverIds = resolveRetrieverIds(opts.retrievers ?? [DEFAULT_RETRIEVER_ID]);
  const arms: Arm[] = resolveArms(opts.arms);
  if (!opts.corpusOnly && !arms.some((a) => a.meta.id === BASELINE_ARM_ID)) {
    throw new UserError(`--arms must include ${BASELINE_ARM_ID} (it is the savings baseline)`);
  }
  // baseline first: it is the denominator of every saving
  arms.sort((a, b) => (a.meta.id === BASELINE_ARM_ID ? -1 : b.meta.id === BASELINE_ARM_ID ? 1 : a.meta.id < b.meta.id ? -1 : 1));

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
    const { corpus, golden } = await timed(timings, 'load', undefined, () => loadInput(input));
    if (seen.has(corpus.id)) throw new UserError(`${input.path}: corpus id ${corpus.id} given twice`);
    seen.add(corpus.id);
    out.loaded.push({ corpus, golden });
    log(`corpus ${corpus.id}: ${corpus.tools.length} tools${golden ? `, ${golden.queries.length} golden queries` : ', no golden set'}`);
    const hygiene = await timed(timings, 'hygiene', corpus.id, async () => corpusHygiene(corpus));
    out.corpora.push({
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
    });
    if (opts.corpusOnly) continue;

    // Per arm, in order: render (prepareArm), count its texts, index + score it, render its
    // simulated responses and count them. Counting runs on this thread for the first tokenizer
    // and in the worker for the others (for all of them when the worker is idle), and the
    // worker keeps counting while this thread renders and scores. Each arm's texts share one
    // counting memo (scope), dropped when the arm is done. Report rows come out in the same
    // order as a stage-by-stage run.
    const results: ArmRunResult[] = [];
    type ArmJob = { prep: PreparedArm; counts: Promise<number[][]> | null; econ?: { perQuery: number[]; counts: Promise<number[][]> } };
    const pending: ArmJob[] = [];
    const rankingsByArm = new Map<string, Map<string, string[]>>();
    const byId = new Map<string, ToolRecord>(corpus.tools.map((t) => [t.tool_id, t]));
    let econMs = 0;
    let baselineRaw: ArmRunResult | undefined;
    for (const arm of arms) {
      const scope = `${corpus.id}\u0000${arm.meta.id}`;
      const job = await timed(timings, `arm:${arm.meta.id}`, corpus.id, async (): Promise<ArmJob> => {
        // the baseline check needs only the corpus identity, so the unfinished baseline result serves
        const prep = await prepareArm(arm, corpus, baselineRaw);
        if (arm.meta.id === BASELINE_ARM_ID) {
          if (prep.result.skipped) throw new Error(`baseline arm skipped on ${corpus.id}: ${prep.result.skip_reason}`);
          baselineRaw = prep.result;
        }
        if (!prep.done && !(arm.meta.id === BASELINE_ARM_ID || arm.meta.altersIndex)) prep.result.index_docs = []; // never indexed
        const counts = prep.done ? null : counter.countAll([...prep.texts, prep.listing], scope);
        // the texts now live only in the counting jobs
        prep.texts = [];
        prep.listing = '';
        results.push(prep.result);
        return { prep, counts };
      });
      pending.push(job);
      const r = job.prep.result;
      if (r.skipped) continue;
      try {
        await armRest(arm, r, scope, job);
      } finally {
        counter.endScope();
      }
    }
    async function armRest(arm: Arm, r: ArmRunResult, scope: string, job: ArmJob): Promise<void> {

      // retrieval: baseline and every index-altering arm, each indexed on its own text, once per retriever
      if (r.arm === BASELINE_ARM_ID || r.altersIndex) {
        const scored = await scoreArmRetrievers({
          corpusId: corpus.id,
          corpusVersion: corpus.version,
          arm: r.arm,
          docs: r.index_docs,
          golden,
          retrieverIds,
          retrieverOptions: opts.retrieverOptions,
          bootstrap: opts.bootstrap,
          depth: Math.max(10, opts.responseTopK),
          timed: (stage, fn) => timed(timings, stage, corpus.id, fn),
          log,
        });
        out.retrieval.push(...scored.rows);
        if (scored.rankings) rankingsByArm.set(r.arm, scored.rankings);
        r.index_docs = []; // indexed; not needed any more (the report does not carry them)
      }

      // economics texts: full menu = the arm's whole listing (counted above); discovery menu =
      // the reference proxy's own tools rendered by the same arm; mean response = the arm's
      // rendering of the top-k tools its index returns for each golden query (simulated
      // retrieve_tools response, labelled as such in the notes). A response depends only on
      // the arm and its top-k ranking: each distinct ranking is rendered and counted once; the
      // mean is still over all queries.
      if (!golden) return;
      const rankings = rankingsByArm.get(r.altersIndex ? r.arm : BASELINE_ARM_ID);
      if (!rankings) return;
      const t0 = performance.now();
      let menuText: string | undefined;
      try {
        menuText = arm.renderListing(menu.tools);
      } catch (e) {
        out.notes.push(`economics: arm ${r.arm} cannot render the discovery menu (${(e as Error).message}); no break-even row`);
      }
      if (menuText !== undefined) {
        const texts = [menuText];
        const slot = new Map<string, number>();
        const perQuery = golden.queries.map((q) => {
          const ids = (rankings.get(q.query) ?? []).slice(0, opts.responseTopK).filter((id) => byId.has(id));
          const key = ids.join('\n');
          let at = slot.get(key);
          if (at === undefined) {
            at = texts.length;
            slot.set(key, at);
            texts.push(ids.length ? arm.renderListing(ids.map((id) => byId.get(id)!)) : '');
          }
          return at;
        });
        job.econ = { perQuery, counts: counter.countAll(texts, scope) };
      }
      econMs += performance.now() - t0;
    }

    // the counts (the worker's may still be running) complete here
    await timed(timings, 'arms:finish', corpus.id, async () => {
      let baseline: ArmRunResult | undefined;
      for (const { prep, counts } of pending) {
        const c = counts ? await counts : [];
        const armCounts: ArmCounts[] = c.map((v, i) => ({ tokenizer: tokNames[i], per_tool: v.slice(0, -1), total: v[v.length - 1] }));
        const r = finishArm(prep, armCounts, baseline);
        if (r.arm === BASELINE_ARM_ID) baseline = r;
        out.arms.push(toArmReport(r, corpus));
        log(`  arm ${r.arm}: ${r.skipped ? r.skip_reason : r.tokens.map((t) => `${t.total_tokens} ${t.tokenizer}`).join(', ')}`);
      }
      const agreement = rankingAgreement(results);
      out.ranking_agreement.push({
        corpus_id: corpus.id,
        by_tokenizer: Object.fromEntries(agreement.orders.map((o) => [o.tokenizer, o.arms])),
        same: agreement.same,
      });
    });
    if (!golden) continue;
    const tEcon = performance.now();
    for (const { prep, econ } of pending) {
      if (!econ) continue;
      const r = prep.result;
      const byTok = await econ.counts;
      const perQuery = econ.perQuery;
      tokNames.forEach((tokName, ti) => {
        const c = byTok[ti];
        const stats = r.tokens.find((t) => t.tokenizer === tokName)!;
        const meanResp = mean(perQuery.map((at) => c[at]));
        const discovery = c[0];
        const curve = breakEvenCurve({ fullMenuTokens: stats.total_tokens, discoveryMenuTokens: discovery, meanResponseTokens: meanResp });
        const be = curve.break_even;
        out.economics.break_even.push({
          corpus_id: corpus.id,
          arm: r.arm,
          tokenizer: tokName,
          full_menu_tokens: be.full_menu_tokens,
          discovery_menu_tokens: be.discovery_menu_tokens,
          mean_response_tokens: be.mean_response_tokens,
          break_even_calls: be.break_even_calls,
          no_break_even: be.no_break_even,
          ...(be.reason ? { reason: be.reason } : {}),
          provenance: 'computed',
        });
        for (const p of curve.points) {
          out.economics.curves.push({ corpus_id: corpus.id, arm: r.arm, tokenizer: tokName, calls: p.calls, full_menu_tokens: p.full_menu_tokens, discovery_tokens: p.discovery_tokens });
        }
        for (const s of sessionEstimates({ menuTokens: discovery, meanResponseTokens: meanResp, retryRate: r.retryRate, calls: SESSION_CALLS })) {
          out.economics.session_estimates.push({ corpus_id: corpus.id, arm: r.arm, tokenizer: tokName, ...s });
        }
      });
    }
    timings.push({ stage: 'economics', corpus_id: corpus.id, ms: econMs + performance.now() - tEcon, rss_mb: process.memoryUsage().rss / 1048576 });
  }
  if (!opts.corpusOnly) out.notes.push(
    `Offline economics: full menu = the arm's whole listing of the corpus; discovery menu = the reference proxy's own ${menu.tools.length} tools (${menu.version}) rendered by the same arm; mean response = the arm's rendering of the top ${opts.responseTopK} tools its ${getRetrieverEntry(retrieverIds[0]).label} index returns per golden query (a simulated retrieve_tools response, not a wire measurement; see the live section for measured responses).`,
  );
  out.threads = counter.threads;
  return out;
}
