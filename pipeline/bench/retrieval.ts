/**
 * The offline stage's retrieval rows for one (corpus, arm): every requested retriever scored on
 * the arm's index docs (pipeline/retrieval/evaluate.ts: cross-validated when the retriever has
 * data-chosen parameters), with its measured costs and, for every retriever but the default,
 * the paired recall@5 difference against the default on the same queries (compare.ts).
 * A retriever that cannot run here (`embed` without --embed-url) gets a `not_scorable` row
 * with the reason, as does every retriever when the corpus has no golden set.
 */
import type { GoldenSet, IndexDoc } from '../types.ts';
import { queryIdsDigest, toQueryRow, type RetrievalReport, type RetrievalScored, type RetrieverInfo } from '../report/index.ts';
import type { RetrieverMeta, RetrieverOptions } from '../retrieval/index.ts';
import { DEFAULT_RETRIEVER_ID, getRetrieverEntry } from '../retrieval/index.ts';
import { evaluateRetriever } from '../retrieval/index.ts';
import { pairedDelta } from '../retrieval/index.ts';

/** The report's copy of a retriever's meta (params as plain JSON). */
export function retrieverInfo(meta: RetrieverMeta): RetrieverInfo {
  return { id: meta.id, analyzer: meta.analyzer, params: JSON.parse(JSON.stringify(meta.params)) };
}

export interface ArmRetrievalInput {
  corpusId: string;
  corpusVersion: string;
  arm: string;
  docs: IndexDoc[];
  golden?: GoldenSet;
  retrieverIds: readonly string[];
  retrieverOptions?: RetrieverOptions;
  bootstrap: { iterations: number; seed: number };
  /** ranking depth kept per query (>= 10; the simulated responses use the top `depth`) */
  depth: number;
  /** wraps each retriever's work (stage timings) */
  timed: <T>(stage: string, fn: () => Promise<T>) => Promise<T>;
  log: (msg: string) => void;
}

export async function scoreArmRetrievers(inp: ArmRetrievalInput): Promise<{ rows: RetrievalReport[]; rankings?: Map<string, string[]> }> {
  const rows: RetrievalReport[] = [];
  let first: Map<string, string[]> | undefined;
  const perQueryR5 = new Map<string, number[]>();
  for (const rid of inp.retrieverIds) {
    const entry = getRetrieverEntry(rid);
    const why = entry.unavailable?.(inp.retrieverOptions);
    if (why || !inp.golden) {
      const retriever = why ? { id: rid, analyzer: 'n/a', params: {} } : retrieverInfo(entry.create(inp.retrieverOptions).meta);
      rows.push({ corpus_id: inp.corpusId, arm: inp.arm, retriever, not_scorable: why ?? `no golden query set for ${inp.corpusVersion}` });
      continue;
    }
    const golden = inp.golden;
    const stage = rid === DEFAULT_RETRIEVER_ID ? `retrieval:${inp.arm}` : `retrieval:${inp.arm}:${rid}`;
    const ev = await inp.timed(stage, () =>
      evaluateRetriever(entry, inp.retrieverOptions, inp.docs, golden, { depth: inp.depth, bootstrap: inp.bootstrap }),
    );
    first ??= ev.rankings;
    perQueryR5.set(
      rid,
      ev.perQuery.map((q) => q.recall_at_5),
    );
    const n = ev.costs.queries;
    const row: RetrievalScored = {
      corpus_id: inp.corpusId,
      arm: inp.arm,
      retriever: retrieverInfo(ev.retriever.meta),
      golden_version: golden.version ?? golden.corpus_version,
      query_count: ev.summary.query_count,
      errors: ev.summary.errors,
      metrics: ev.summary.metrics,
      query_ids_sha256: queryIdsDigest(ev.perQuery),
      per_query: ev.perQuery.map(toQueryRow),
      costs: {
        build_ms: { value: ev.costs.build_ms, unit: 'ms', provenance: 'measured', n: inp.docs.length },
        query_p50_ms: { value: ev.costs.query_p50_ms, unit: 'ms', provenance: 'measured', n },
        query_p99_ms: { value: ev.costs.query_p99_ms, unit: 'ms', provenance: 'measured', n },
      },
    };
    if (ev.tuning) {
      const t = ev.tuning;
      row.tuning = {
        method: t.method,
        objective: t.objective,
        folds: t.folds,
        seed: t.seed,
        grid: entry.tuning!.describe,
        grid_size: t.grid_size,
        per_fold: t.per_fold.map((f) => ({ ...f, chosen: JSON.parse(JSON.stringify(f.chosen)) })),
        mean_heldout_recall_at_5: t.mean_heldout_recall_at_5,
        chosen_all: JSON.parse(JSON.stringify(t.chosen_all)),
      };
    }
    const base = perQueryR5.get(DEFAULT_RETRIEVER_ID);
    if (rid !== DEFAULT_RETRIEVER_ID && base) {
      const d = pairedDelta(perQueryR5.get(rid)!, base, row.metrics.recall_at_5.ci95 as [number, number], inp.bootstrap);
      row.vs_default = {
        retriever: DEFAULT_RETRIEVER_ID,
        metric: 'recall_at_5',
        delta: d.delta,
        ci95: d.ci95,
        ci_half_width: d.a_ci_half_width,
        beats_by_more_than_half_width: d.beats_by_more_than_half_width,
        paired_ci_excludes_zero: d.paired_ci_excludes_zero,
        n: d.n,
      };
    }
    rows.push(row);
    const m = ev.summary.metrics;
    inp.log(
      `  retrieval ${inp.arm}${inp.retrieverIds.length > 1 ? ` (${rid}${ev.tuning ? ', 5-fold CV held-out' : ''})` : ''}: recall@5 ${m.recall_at_5.value.toFixed(3)}, MRR ${m.mrr.value.toFixed(3)}`,
    );
  }
  return { rows, rankings: first };
}
