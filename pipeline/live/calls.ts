/**
 * Live stage, calling: one discovery call, the readiness wait for external proxies, and the
 * measured passes of one detail level. Everything here talks to the proxy; nothing counts tokens.
 */
import { resultText, type McpConnection } from '../mcp/client.ts';
import type { Detail, LiveError } from '../report/index.ts';
import type { GoldenSet } from '../types.ts';
import { partitionResponse } from './spans.ts';

export interface CallOutcome {
  ok: boolean;
  text?: string;
  error?: string;
  ms: number;
}

/** one discovery call for (query, detail) */
export type DiscoveryCall = (query: string, detail: Detail) => Promise<CallOutcome>;

export const oneLine = (s: string, max = 300): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t || '(empty)';
};

export async function callOnce(conn: McpConnection, tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<CallOutcome> {
  const t0 = performance.now();
  try {
    const res = await conn.callTool(tool, args, { timeoutMs });
    const ms = performance.now() - t0;
    const text = resultText(res);
    if (res.isError) return { ok: false, error: `tool error: ${oneLine(text)}`, ms };
    if (text === '') return { ok: false, error: 'empty response (no text content)', ms };
    return { ok: true, text, ms };
  } catch (e) {
    return { ok: false, error: oneLine((e as Error).message ?? String(e)), ms: performance.now() - t0 };
  }
}

/**
 * Readiness of external proxies that index in the background: wait until one of the first
 * golden queries returns results (an empty tools array for all of them = not indexed yet).
 */
export async function waitUntilIndexed(call: DiscoveryCall, golden: GoldenSet, readyMs: number, errors: LiveError[]): Promise<void> {
  const deadline = Date.now() + readyMs;
  const probes = golden.queries.slice(0, 5);
  for (;;) {
    for (const q of probes) {
      const r = await call(q.query, 'full');
      if (!r.ok) return;
      const p = partitionResponse(r.text!);
      if (p.resultCount > 0 || p.flag !== undefined) return;
    }
    if (Date.now() > deadline) {
      errors.push({
        where: 'ready',
        message: `the proxy returned no results for the first ${probes.length} golden queries for ${readyMs} ms (not indexed yet?)`,
      });
      return;
    }
    await new Promise((r2) => setTimeout(r2, 250));
  }
}

/** Measured state of one detail level. */
export interface DetailRun {
  detail: Detail;
  /** per query: first successful text, first error, successful latencies */
  perQuery: {
    id: string;
    query: string;
    text?: string;
    error?: string;
    latencies: number[];
    failedLatencies: number[];
    failures: number;
    varied: boolean;
  }[];
  timed: number[];
  warmup: number;
}

/** Warm-up calls, then `runs` passes over the golden queries at one detail level. */
export async function measureDetail(
  call: DiscoveryCall,
  detail: Detail,
  golden: GoldenSet,
  plan: { runs: number; warmup: number },
  errors: LiveError[],
  log: (m: string) => void,
): Promise<DetailRun> {
  const dr: DetailRun = {
    detail,
    perQuery: golden.queries.map((q) => ({ id: q.id, query: q.query, latencies: [], failedLatencies: [], failures: 0, varied: false })),
    timed: [],
    warmup: 0,
  };
  for (let w = 0; w < plan.warmup && golden.queries.length > 0; w++) {
    const q = golden.queries[w % golden.queries.length];
    const r = await call(q.query, detail);
    dr.warmup++;
    if (!r.ok) errors.push({ where: `warmup:${q.id}/${detail}`, message: r.error! });
  }
  log(`live: ${detail}: ${golden.queries.length} queries x ${plan.runs} runs`);
  for (let run = 0; run < plan.runs; run++) {
    for (const pq of dr.perQuery) {
      const r = await call(pq.query, detail);
      if (r.ok) {
        pq.latencies.push(r.ms);
        dr.timed.push(r.ms);
        if (pq.text === undefined) pq.text = r.text;
        else if (r.text !== pq.text) pq.varied = true;
      } else {
        pq.failures++;
        pq.failedLatencies.push(r.ms);
        if (pq.error === undefined) pq.error = r.error;
      }
    }
  }
  for (const pq of dr.perQuery) {
    if (pq.text === undefined) errors.push({ where: `query:${pq.id}/${detail}`, message: pq.error ?? 'failed' });
    else if (pq.failures > 0)
      errors.push({ where: `query:${pq.id}/${detail}`, message: `${pq.failures} of ${plan.runs} runs failed (first: ${pq.error})` });
  }
  const varied = dr.perQuery.filter((pq) => pq.varied).map((pq) => pq.id);
  if (varied.length > 0) {
    errors.push({
      where: `determinism/${detail}`,
      message: `the response text differed between runs for ${varied.length} quer${varied.length === 1 ? 'y' : 'ies'} (${varied.slice(0, 5).join(', ')}${varied.length > 5 ? ', …' : ''}); the first successful response is measured`,
    });
  }
  return dr;
}
