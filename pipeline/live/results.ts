/**
 * Live stage, measuring what the calls returned: menu tokens, response tokens by component,
 * the proxy's own ranking scored on the golden set, latency, and the economics from those
 * measured inputs. Pure functions of the call results (no I/O).
 */
import { breakEvenCurve } from '../economics/breakeven.ts';
import { sessionEstimates } from '../economics/session.ts';
import { scoreGolden } from '../retrieval/index.ts';
import {
  breakEvenRow,
  curveRows,
  queryIdsDigest,
  sessionRows,
  toQueryRow,
  type LiveError,
  type LiveLatency,
  type LiveMenu,
  type LiveReport,
  type LiveResponseRow,
  type LiveResponseSummary,
  type LiveRetrieval,
} from '../report/index.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import type { GoldenSet } from '../types.ts';
import { mean, percentile } from '../util/stats.ts';
import type { DetailRun } from './calls.ts';
import { partitionResponse, toComponents, type ResponsePartition } from './spans.ts';

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

export interface MenuTexts {
  proxyListing: string;
  fullListing: string;
  proxyToolCount: number;
  upstreamToolCount: number;
  /** the upstream menu was listed over MCP (else it comes from a corpus file: estimated) */
  upstreamLive: boolean;
}

export function countMenus(tokenizers: Tokenizer[], m: MenuTexts): LiveMenu[] {
  return tokenizers.map((tk) => ({
    tokenizer: tk.name,
    proxy_menu_tokens: { value: tk.count(m.proxyListing), unit: 'tokens', provenance: 'measured', tokenizer: tk.name, n: m.proxyToolCount },
    full_menu_tokens: {
      value: tk.count(m.fullListing),
      unit: 'tokens',
      provenance: m.upstreamLive ? 'measured' : 'estimated',
      tokenizer: tk.name,
      n: m.upstreamToolCount,
    },
    proxy_tool_count: m.proxyToolCount,
    upstream_tool_count: m.upstreamToolCount,
  }));
}

/** key of a partition: detail + query id */
const partKey = (detail: string, id: string) => `${detail}\u0000${id}`;

/** Split every measured response into labelled byte spans; the first span problem per detail is an error row. */
export function partitionAll(detailRuns: DetailRun[], errors: LiveError[]): Map<string, ResponsePartition> {
  const partitions = new Map<string, ResponsePartition>();
  const flagged = new Set<string>();
  for (const dr of detailRuns) {
    for (const pq of dr.perQuery) {
      if (pq.text === undefined) continue;
      const p = partitionResponse(pq.text);
      partitions.set(partKey(dr.detail, pq.id), p);
      if (p.flag && !flagged.has(dr.detail)) {
        flagged.add(dr.detail);
        errors.push({ where: `spans:${pq.id}/${dr.detail}`, message: p.flag });
      }
    }
  }
  return partitions;
}

export function countResponses(
  tokenizers: Tokenizer[],
  detailRuns: DetailRun[],
  partitions: Map<string, ResponsePartition>,
): { responses: LiveResponseRow[]; response_summary: LiveResponseSummary[] } {
  const responses: LiveResponseRow[] = [];
  const response_summary: LiveResponseSummary[] = [];
  for (const tk of tokenizers) {
    for (const dr of detailRuns) {
      const totals: number[] = [];
      for (const pq of dr.perQuery) {
        // per row: the median over the runs (of the failed calls for an error row)
        const latency = round3(percentile(pq.latencies.length ? pq.latencies : pq.failedLatencies, 50) || 0);
        if (pq.text === undefined) {
          responses.push({
            query_id: pq.id,
            detail: dr.detail,
            tokenizer: tk.name,
            ok: false,
            error: pq.error ?? 'failed',
            latency_ms: latency,
          });
          continue;
        }
        const p = partitions.get(partKey(dr.detail, pq.id))!;
        const { total, byLabel } = tk.countSpans(pq.text, p.spans);
        totals.push(total);
        responses.push({
          query_id: pq.id,
          detail: dr.detail,
          tokenizer: tk.name,
          ok: true,
          total_tokens: total,
          result_count: p.resultCount,
          components: toComponents(byLabel),
          latency_ms: latency,
        });
      }
      if (totals.length > 0) {
        response_summary.push({
          detail: dr.detail,
          tokenizer: tk.name,
          n: totals.length,
          p50: percentile(totals, 50),
          p95: percentile(totals, 95),
          p99: percentile(totals, 99),
          max: Math.max(...totals),
          mean: mean(totals),
          errors: dr.perQuery.length - totals.length,
        });
      }
    }
  }
  return { responses, response_summary };
}

/** The proxy's own ranking (tool names in response order) scored on the golden set, per detail. */
export async function scoreProxyRankings(
  detailRuns: DetailRun[],
  partitions: Map<string, ResponsePartition>,
  golden: GoldenSet,
  bootstrap: { iterations: number; seed: number } | undefined,
): Promise<LiveRetrieval[]> {
  const retrieval: LiveRetrieval[] = [];
  for (const dr of detailRuns) {
    const byQuery = new Map<string, (typeof dr.perQuery)[number]>();
    for (const pq of dr.perQuery) if (!byQuery.has(pq.query)) byQuery.set(pq.query, pq);
    const search = (query: string): string[] => {
      const pq = byQuery.get(query);
      if (!pq) throw new Error('query not measured');
      if (pq.text === undefined) throw new Error(pq.error ?? 'discovery call failed');
      const p = partitions.get(partKey(dr.detail, pq.id))!;
      if (!p.json) throw new Error(p.flag ?? 'response is not JSON');
      return p.ranking;
    };
    const scored = await scoreGolden(search, golden, { k: 10, bootstrap });
    const r: LiveRetrieval = {
      detail: dr.detail,
      query_count: scored.summary.query_count,
      errors: scored.summary.errors,
      query_ids_sha256: queryIdsDigest(scored.perQuery),
      per_query: scored.perQuery.map(toQueryRow),
    };
    // every query failed: no figure at all (a 0 with a [0, 0] interval would read as measured)
    if (scored.summary.query_count > 0 && scored.summary.errors >= scored.summary.query_count) {
      const first = dr.perQuery.find((q) => q.error)?.error;
      r.not_computed_reason = `all ${scored.summary.query_count} discovery calls at detail ${dr.detail} failed or were not parseable${first ? ` (first: ${first})` : ''}`;
    } else r.summary = scored.summary.metrics;
    if (golden.version) r.golden_version = golden.version;
    retrieval.push(r);
  }
  return retrieval;
}

export function latencyRows(detailRuns: DetailRun[], runs: number): LiveLatency[] {
  return detailRuns
    .filter((dr) => dr.timed.length > 0)
    .map((dr) => ({
      detail: dr.detail,
      n: dr.timed.length,
      warmup: dr.warmup,
      runs,
      p50_ms: round3(percentile(dr.timed, 50)),
      p95_ms: round3(percentile(dr.timed, 95)),
      p99_ms: round3(percentile(dr.timed, 99)),
      max_ms: round3(Math.max(...dr.timed)),
      mean_ms: round3(mean(dr.timed)),
      errors: dr.perQuery.reduce((a, q) => a + q.failures, 0),
    }));
}

/**
 * Economics from the measured menus and mean responses, per (tokenizer, detail) as arm
 * `proxy_<detail>`. Session estimates always; break-even only with an authoritative headline
 * (`headlineReason` null) and a positive mean response when the full menu is larger.
 */
export function liveEconomics(
  menus: LiveMenu[],
  summary: LiveResponseSummary[],
  corpusId: string,
  headlineReason: string | null,
): LiveReport['economics'] {
  const out: LiveReport['economics'] = { break_even: [], session_estimates: [], curves: [] };
  for (const m of menus) {
    for (const s of summary.filter((x) => x.tokenizer === m.tokenizer)) {
      const key = { corpus_id: corpusId, arm: `proxy_${s.detail}`, tokenizer: m.tokenizer };
      out.session_estimates.push(
        ...sessionRows(key, sessionEstimates({ menuTokens: m.proxy_menu_tokens.value, meanResponseTokens: s.mean, retryRate: 0 })),
      );
      if (headlineReason) continue;
      const input = {
        fullMenuTokens: m.full_menu_tokens.value,
        discoveryMenuTokens: m.proxy_menu_tokens.value,
        meanResponseTokens: s.mean,
      };
      if (input.fullMenuTokens > input.discoveryMenuTokens && s.mean <= 0) continue;
      const curve = breakEvenCurve(input);
      out.break_even.push(breakEvenRow(key, curve.break_even));
      out.curves!.push(...curveRows(key, curve));
    }
  }
  return out;
}
