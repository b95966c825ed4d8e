/**
 * Retrieval metrics per query and over a golden set (definitions follow the predecessor's
 * bench, see docs and ../shared/research/mcpproxy-bench.md section 5.3):
 *
 * rel(id) = label relevance, 0 when unlabelled; a label of relevance 0 is an explicit hard
 * negative (non-relevant, and reported). R = number of labels with relevance >= 1.
 * Ranks are 1-based; the ranking is cut at DEPTH = 10. A tool_id repeated in a ranking is
 * credited only at its first position (later copies count as non-relevant).
 *
 *   Recall@k            |relevant in top k| / R                         (k = 1, 3, 5, 10)
 *   RR                  1 / rank of the first relevant result, else 0
 *   nDCG@10             DCG / IDCG, DCG = sum rel(r_i) / log2(i + 1) over ranks i <= 10
 *                       (linear graded gain), IDCG = the same over the label relevances >= 1
 *                       sorted descending, capped at 10 entries
 *   AP                  sum over relevant ranks i of (relevant in top i) / i, divided by R
 *                       (binary relevance, over the returned top 10)
 *   Comprehensiveness@k 1 if every relevant tool is in the top k, else 0
 * A query with R = 0 scores 0 on every metric, is flagged `no_relevant_labels`, and still
 * counts in every mean. Aggregates (MRR, MAP, mean Recall@k...) are arithmetic means over all
 * queries, with a 95% percentile-bootstrap interval over queries (seeded, nearest-rank
 * percentiles 2.5 and 97.5 of the resampled means).
 */
import type { Figure, GoldenLabel, GoldenSet } from '../types.ts';
import { UserError } from '../types.ts';
import { mean, seededRandom } from '../util/stats.ts';

export const DEPTH = 10;
export const CUTOFFS = [1, 3, 5, 10] as const;

export interface QueryMetrics {
  recall_at_1: number;
  recall_at_3: number;
  recall_at_5: number;
  recall_at_10: number;
  rr: number;
  ndcg_at_10: number;
  ap: number;
  comprehensive_at_1: number;
  comprehensive_at_3: number;
  comprehensive_at_5: number;
  comprehensive_at_10: number;
}

export interface QueryScore extends QueryMetrics {
  /** R: labels with relevance >= 1 */
  relevant_count: number;
  /** 1-based rank of the first relevant result in the top 10, or null */
  first_relevant_rank: number | null;
  /** 1-based rank of the best-ranked hard negative (relevance-0 label) in the top 10, or null */
  first_hard_negative_rank: number | null;
  /** a hard negative ranks above the first relevant result (or one is ranked and no relevant is) */
  hard_negative_above_first_relevant: boolean;
  /** R = 0: every metric is 0 by definition */
  no_relevant_labels: boolean;
}

export interface QueryResult extends QueryScore {
  query_id: string;
  query: string;
  /** the top of the ranking as scored (at most `k` tool ids, best first) */
  top: string[];
  /** gold tool ids (relevance >= 1), by relevance desc then tool_id asc */
  gold: string[];
  /** set only when the search failed for this query: message kept, every metric 0 */
  error?: string;
}

/** Aggregate metric names (per-query rr -> mrr, ap -> map, comprehensive -> comprehensiveness). */
export const SUMMARY_METRICS = [
  'recall_at_1',
  'recall_at_3',
  'recall_at_5',
  'recall_at_10',
  'mrr',
  'ndcg_at_10',
  'map',
  'comprehensiveness_at_1',
  'comprehensiveness_at_3',
  'comprehensiveness_at_5',
  'comprehensiveness_at_10',
] as const;
export type SummaryMetric = (typeof SUMMARY_METRICS)[number];

const SOURCE: Record<SummaryMetric, keyof QueryMetrics> = {
  recall_at_1: 'recall_at_1',
  recall_at_3: 'recall_at_3',
  recall_at_5: 'recall_at_5',
  recall_at_10: 'recall_at_10',
  mrr: 'rr',
  ndcg_at_10: 'ndcg_at_10',
  map: 'ap',
  comprehensiveness_at_1: 'comprehensive_at_1',
  comprehensiveness_at_3: 'comprehensive_at_3',
  comprehensiveness_at_5: 'comprehensive_at_5',
  comprehensiveness_at_10: 'comprehensive_at_10',
};

export type MetricFigure = Figure & { ci95: [number, number] };

export interface RetrievalSummary {
  /** every query of the golden set, failed ones included */
  query_count: number;
  /** queries whose search threw (scored 0 on every metric, included in every mean) */
  errors: number;
  /** queries with no label of relevance >= 1 (scored 0, included in every mean) */
  no_relevant_label_queries: number;
  /** queries where a hard negative outranked the first relevant result */
  hard_negative_above_first_relevant: number;
  /** ranking depth kept per query */
  k: number;
  bootstrap: { iterations: number; seed: number };
  metrics: Record<SummaryMetric, MetricFigure>;
}

export interface ScoreGoldenOptions {
  /** ranking depth kept and scored per query (default 10) */
  k?: number;
  /** percentile bootstrap over queries (default 2000 iterations, seed 42) */
  bootstrap?: { iterations: number; seed: number };
}

function validateLabels(labels: GoldenLabel[], where: string): Map<string, number> {
  if (!Array.isArray(labels)) throw new UserError(`${where}: labels must be an array`);
  const rel = new Map<string, number>();
  for (const l of labels) {
    if (!l || typeof l.tool_id !== 'string' || l.tool_id === '') throw new UserError(`${where}: a label has no tool_id`);
    if (typeof l.relevance !== 'number' || !Number.isFinite(l.relevance) || l.relevance < 0) {
      throw new UserError(`${where}: label ${l.tool_id}: relevance must be a finite number >= 0, got ${String(l.relevance)}`);
    }
    if (rel.has(l.tool_id)) throw new UserError(`${where}: duplicate label for ${l.tool_id}`);
    rel.set(l.tool_id, l.relevance);
  }
  return rel;
}

function zeroMetrics(): QueryMetrics {
  return {
    recall_at_1: 0,
    recall_at_3: 0,
    recall_at_5: 0,
    recall_at_10: 0,
    rr: 0,
    ndcg_at_10: 0,
    ap: 0,
    comprehensive_at_1: 0,
    comprehensive_at_3: 0,
    comprehensive_at_5: 0,
    comprehensive_at_10: 0,
  };
}

function scoreWith(ranking: string[], rel: Map<string, number>): QueryScore {
  if (!Array.isArray(ranking)) throw new UserError('ranking must be an array of tool ids');
  for (const id of ranking) if (typeof id !== 'string') throw new UserError(`ranking holds a non-string entry: ${JSON.stringify(id)}`);
  const top = ranking.slice(0, DEPTH);
  const relevantGains = [...rel.values()].filter((r) => r >= 1);
  const R = relevantGains.length;
  const m = zeroMetrics();

  const seen = new Set<string>();
  let hits = 0;
  let apSum = 0;
  let dcg = 0;
  let firstRel: number | null = null;
  let firstNeg: number | null = null;
  const hitsAt: number[] = []; // hitsAt[i] = relevant results in ranks 1..i+1
  for (let i = 0; i < top.length; i++) {
    const id = top[i];
    const first = !seen.has(id);
    seen.add(id);
    const r = first ? (rel.get(id) ?? 0) : 0;
    const rank = i + 1;
    if (first && r === 0 && rel.has(id) && firstNeg === null) firstNeg = rank;
    if (r >= 1) {
      hits++;
      apSum += hits / rank;
      if (firstRel === null) firstRel = rank;
      dcg += r / Math.log2(rank + 1);
    }
    hitsAt.push(hits);
  }
  const hitsWithin = (k: number) => (top.length === 0 ? 0 : hitsAt[Math.min(k, top.length) - 1]);

  if (R > 0) {
    for (const k of CUTOFFS) {
      const h = hitsWithin(k);
      m[`recall_at_${k}`] = h / R;
      m[`comprehensive_at_${k}`] = h === R ? 1 : 0;
    }
    m.rr = firstRel === null ? 0 : 1 / firstRel;
    const ideal = relevantGains.sort((a, b) => b - a).slice(0, DEPTH);
    let idcg = 0;
    ideal.forEach((g, i) => (idcg += g / Math.log2(i + 2)));
    m.ndcg_at_10 = idcg > 0 ? dcg / idcg : 0;
    m.ap = apSum / R;
  }
  return {
    ...m,
    relevant_count: R,
    first_relevant_rank: firstRel,
    first_hard_negative_rank: firstNeg,
    hard_negative_above_first_relevant: firstNeg !== null && (firstRel === null || firstNeg < firstRel),
    no_relevant_labels: R === 0,
  };
}

/** Score one ranking (tool ids, best first) against a query's labels. */
export function scoreQuery(ranking: string[], labels: GoldenLabel[]): QueryScore {
  return scoreWith(ranking, validateLabels(labels, 'labels'));
}

/** scoreQuery with the labels checked once: a scorer of many rankings of the same query (cv.ts). */
export function queryScorer(labels: GoldenLabel[]): (ranking: string[]) => QueryScore {
  const rel = validateLabels(labels, 'labels');
  return (ranking) => scoreWith(ranking, rel);
}

function positiveInt(fn: string, v: unknown, name: string, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
    throw new UserError(`${fn}: ${name} must be an integer >= ${min}, got ${String(v)}`);
  return v;
}

/** resample indices kept for the next call with the same (n, iterations, seed), up to this many */
const DRAWS_MEMO_MAX = 8_000_000;
let drawsMemo: { n: number; iterations: number; seed: number; idx: Int32Array } | undefined;

/**
 * The resampled query indices of every iteration, row-major (iteration it = idx[it*n .. it*n+n)):
 * every row of a report is bootstrapped with the same seed over the same queries, so the draws
 * are made once and reused (when they fit DRAWS_MEMO_MAX); else one row at a time into `row`.
 */
function resampleIndices(n: number, iterations: number, seed: number): Int32Array | undefined {
  const m = drawsMemo;
  if (m && m.n === n && m.iterations === iterations && m.seed === seed) return m.idx;
  if (n * iterations > DRAWS_MEMO_MAX) return undefined;
  const rnd = seededRandom(seed);
  const idx = new Int32Array(n * iterations);
  for (let p = 0; p < idx.length; p++) idx[p] = Math.floor(rnd() * n);
  drawsMemo = { n, iterations, seed, idx };
  return idx;
}

/**
 * Bootstrap CI of the mean of each column: `iterations` resamples of the query indices with
 * replacement (one shared draw per iteration for all metrics), nearest-rank 2.5/97.5 percentiles.
 * Columns holding the same values (recall@k and comprehensiveness@k with one gold tool per
 * query) are resampled once: the same doubles in the same order give the same interval.
 */
export function bootstrapMeans(columns: number[][], iterations: number, seed: number): [number, number][] {
  const n = columns.length ? columns[0].length : 0;
  if (n === 0) return columns.map(() => [NaN, NaN]);
  // typed copies: the same doubles summed in the same order, in tight loops; one per distinct column
  const distinct: Float64Array[] = [];
  const slot = columns.map((c) => {
    const col = Float64Array.from(c);
    const at = distinct.findIndex((d) => d.length === col.length && d.every((v, j) => Object.is(v, col[j])));
    if (at >= 0) return at;
    distinct.push(col);
    return distinct.length - 1;
  });
  const draws = distinct.map(() => new Float64Array(iterations));
  const all = resampleIndices(n, iterations, seed);
  const rnd = all ? undefined : seededRandom(seed);
  const row = new Int32Array(n);
  for (let it = 0; it < iterations; it++) {
    let idx: Int32Array = row;
    if (all) idx = all.subarray(it * n, it * n + n);
    else for (let j = 0; j < n; j++) row[j] = Math.floor(rnd!() * n);
    for (let c = 0; c < distinct.length; c++) {
      const col = distinct[c];
      let s = 0;
      for (let j = 0; j < n; j++) s += col[idx[j]];
      draws[c][it] = s / n;
    }
  }
  // nearest-rank percentiles (util/stats percentile) of one in-place numeric sort per column
  const cis = draws.map((d): [number, number] => {
    d.sort();
    const at = (p: number) => d[Math.min(d.length, Math.max(1, Math.ceil((p / 100) * d.length))) - 1];
    return [at(2.5), at(97.5)];
  });
  return slot.map((s) => [cis[s][0], cis[s][1]]);
}

/** One query as it came back: its ranking, or the message of a search that failed. */
type Outcome = { ranking: string[] } | { error: string };

interface ScoringPlan {
  k: number;
  iterations: number;
  seed: number;
  prepared: { q: GoldenSet['queries'][number]; rel: Map<string, number> }[];
}

/** Checks the options and every golden query (ids, labels) before anything is scored. */
function planScoring(golden: GoldenSet, opts: ScoreGoldenOptions, fn: string): ScoringPlan {
  if (!golden || !Array.isArray(golden.queries)) throw new UserError(`${fn}: golden set has no "queries" array`);
  if (golden.queries.length === 0) throw new UserError(`${fn}: golden set has no queries`);
  const k = positiveInt(fn, opts.k ?? DEPTH, 'k', 1);
  const iterations = positiveInt(fn, opts.bootstrap?.iterations ?? 2000, 'bootstrap.iterations', 1);
  const seed = positiveInt(fn, opts.bootstrap?.seed ?? 42, 'bootstrap.seed', 0);

  const ids = new Set<string>();
  const prepared = golden.queries.map((q, i) => {
    const where = `golden query ${q && typeof q.id === 'string' ? q.id : `#${i}`}`;
    if (!q || typeof q.id !== 'string' || q.id === '') throw new UserError(`golden query #${i}: missing id`);
    if (typeof q.query !== 'string') throw new UserError(`${where}: "query" must be a string`);
    if (ids.has(q.id)) throw new UserError(`${where}: duplicate query id`);
    ids.add(q.id);
    return { q, rel: validateLabels(q.labels, where) };
  });
  return { k, iterations, seed, prepared };
}

/** Per-query rows and the summary (means with bootstrap CIs) of one outcome per golden query. */
function scoreOutcomes(plan: ScoringPlan, outcomes: readonly Outcome[]): { perQuery: QueryResult[]; summary: RetrievalSummary } {
  const { k, iterations, seed } = plan;
  const perQuery: QueryResult[] = plan.prepared.map(({ q, rel }, i) => {
    const gold = [...rel.entries()]
      .filter(([, r]) => r >= 1)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([id]) => id);
    const out = outcomes[i];
    if ('error' in out) {
      const R = [...rel.values()].filter((r) => r >= 1).length;
      return {
        query_id: q.id,
        query: q.query,
        top: [],
        gold,
        error: out.error,
        ...zeroMetrics(),
        relevant_count: R,
        first_relevant_rank: null,
        first_hard_negative_rank: null,
        hard_negative_above_first_relevant: false,
        no_relevant_labels: R === 0,
      };
    }
    return { query_id: q.id, query: q.query, top: out.ranking, gold, ...scoreWith(out.ranking, rel) };
  });

  const columns = SUMMARY_METRICS.map((name) => perQuery.map((r) => r[SOURCE[name]]));
  const cis = bootstrapMeans(columns, iterations, seed);
  const metrics = {} as Record<SummaryMetric, MetricFigure>;
  SUMMARY_METRICS.forEach((name, i) => {
    metrics[name] = { value: mean(columns[i]), unit: 'fraction', provenance: 'measured', n: perQuery.length, ci95: cis[i] };
  });
  return {
    perQuery,
    summary: {
      query_count: perQuery.length,
      errors: perQuery.filter((r) => r.error !== undefined).length,
      no_relevant_label_queries: perQuery.filter((r) => r.no_relevant_labels).length,
      hard_negative_above_first_relevant: perQuery.filter((r) => r.hard_negative_above_first_relevant).length,
      k,
      bootstrap: { iterations, seed },
      metrics,
    },
  };
}

/**
 * Score rankings already in hand: `rankings[i]` is the ranking (tool ids, best first) of
 * golden query i, cut at `k`. A ranking that is not an array of strings, or a count that does
 * not match the golden set, is a UserError (rankings in hand cannot fail like a search).
 */
export function scoreRankings(
  rankings: readonly (readonly string[])[],
  golden: GoldenSet,
  opts: ScoreGoldenOptions = {},
): { perQuery: QueryResult[]; summary: RetrievalSummary } {
  const plan = planScoring(golden, opts, 'scoreRankings');
  if (!Array.isArray(rankings) || rankings.length !== plan.prepared.length) {
    throw new UserError(
      `scoreRankings: ${Array.isArray(rankings) ? rankings.length : 'no'} rankings for ${plan.prepared.length} golden queries`,
    );
  }
  const outcomes = rankings.map((r, i) => {
    if (!Array.isArray(r) || r.some((x) => typeof x !== 'string'))
      throw new UserError(`scoreRankings: the ranking of golden query ${plan.prepared[i].q.id} is not an array of tool ids`);
    return { ranking: r.slice(0, plan.k) };
  });
  return scoreOutcomes(plan, outcomes);
}

/**
 * Run `search` for every golden query (sequentially, in golden order) and score the rankings.
 * A search that throws (or returns something other than an array of strings) yields an error
 * row with the message, every metric 0, counted in `summary.errors` and in every mean.
 */
export async function scoreGolden(
  search: (query: string) => string[] | Promise<string[]>,
  golden: GoldenSet,
  opts: ScoreGoldenOptions = {},
): Promise<{ perQuery: QueryResult[]; summary: RetrievalSummary }> {
  const plan = planScoring(golden, opts, 'scoreGolden');
  const outcomes: Outcome[] = [];
  for (const { q } of plan.prepared) {
    try {
      const res = await search(q.query);
      if (!Array.isArray(res) || res.some((x) => typeof x !== 'string'))
        throw new Error('search returned something other than an array of tool ids');
      outcomes.push({ ranking: res.slice(0, plan.k) });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      outcomes.push({ error: message || 'search failed' });
    }
  }
  return scoreOutcomes(plan, outcomes);
}
