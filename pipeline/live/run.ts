/**
 * The live stage: measure what a running discovery proxy really sends over MCP.
 *
 * Everything is measured over the wire (never from in-process builders):
 * - menus: the proxy's own tools/list and the union of the upstreams' tools/list, rendered like
 *   the baseline_json arm (`name\ndescription\ncanonical schema`, tools joined by a blank line)
 *   and counted with every tokenizer;
 * - responses: for every golden query the discovery tool is called (detail full, and compact
 *   when the tool declares the detail argument); the exact text is kept, counted, and its tokens
 *   attributed to components by byte spans (spans.ts) that sum exactly to the total;
 * - retrieval: the proxy's own ranking (tool names in response order) scored with scoreGolden;
 * - latency: warm-up calls first, then `runs` passes over the queries, client-measured;
 * - economics: break-even and session estimates from the measured inputs (break-even withheld
 *   when a schema is missing on either side: authoritative_headline false with the reason);
 * - LAP: merged from `--lap-json`, run when `lap` is on PATH, else skipped; never fails the run.
 * A failing query is an error row (and an `errors[]` entry), never an aborted run.
 */
import { resolve } from 'node:path';
import { connectMcp, describeTarget, resultText, type McpConnection, type ProtocolChoice, type WireTool } from '../mcp/client.ts';
import { UserError, type Corpus, type GoldenSet, type JsonValue, type ToolRecord } from '../types.ts';
import { getTokenizer, isTokenizerName, TOKENIZER_NAMES, type Tokenizer } from '../tokens/tokenizer.ts';
import { loadCorpus } from '../corpus/load.ts';
import { loadGolden } from '../corpus/golden.ts';
import { scoreGolden, type QueryResult, type RetrievalSummary } from '../retrieval/metrics.ts';
import { breakEven, breakEvenCurve } from '../economics/breakeven.ts';
import { sessionEstimates } from '../economics/session.ts';
import { percentile, mean } from '../util/stats.ts';
import { arm as baselineArm } from '../../arms/baseline_json.ts';
import type {
  BreakEvenCurvePoint,
  BreakEvenRow,
  Detail,
  LiveError,
  LiveLatency,
  LiveMenu,
  LiveReport,
  LiveResponseRow,
  LiveResponseSummary,
  LiveRetrieval,
  QueryRow,
  RetrievalMetrics,
  SessionEstimateRow,
} from '../report/types.ts';
import { partitionResponse, toComponents, type ResponsePartition } from './spans.ts';
import { DEFAULT_CORPUS, DEFAULT_GOLDEN } from '../constants.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS, listUpstreams, openTarget, type OpenedTarget, type TargetOptions, type UpstreamMenu } from './targets.ts';
import { lapSection } from './lap.ts';


export interface ArgNames {
  query: string;
  /** null: never send a limit */
  limit: string | null;
  /** null: the proxy has no detail argument (only `full` is measured) */
  detail: string | null;
}

export interface LiveOptions extends TargetOptions {
  /** discovery tool name (default retrieve_tools) */
  discoveryTool?: string;
  argNames?: Partial<ArgNames>;
  /** `limit` sent with every discovery call (default 10) */
  limit?: number;
  /** which detail levels to measure (default both; compact only when the tool declares the detail argument) */
  details?: Detail[];
  goldenFile?: string;
  corpusFile?: string;
  /** use only the first N golden queries (speed) */
  maxQueries?: number;
  /** measured passes over the queries (default 3) */
  runs?: number;
  /** warm-up calls per detail before measuring (default 2) */
  warmup?: number;
  /** tokenizer names (default both) */
  tokenizers?: string[];
  lapJson?: string;
  lap?: 'auto' | 'off';
  /** executable to run as `lap` (default: `lap` from PATH) */
  lapCommand?: string;
  /** per discovery call deadline (ms, default 30000) */
  callTimeoutMs?: number;
  /** retrieval bootstrap (default 2000 iterations, seed 42) */
  bootstrap?: { iterations: number; seed: number };
}

interface CallOutcome {
  ok: boolean;
  text?: string;
  error?: string;
  ms: number;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const oneLine = (s: string, max = 300): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t || '(empty)';
};

function posInt(v: unknown, name: string, min: number, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new UserError(`${name} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return v;
}

/** A wire tool as a ToolRecord (for the baseline_json renderer). */
function recordOf(server: string, t: WireTool): ToolRecord {
  const r: ToolRecord = {
    tool_id: `${server}:${t.name}`,
    server,
    tool: t.name,
    description: typeof t.description === 'string' ? t.description : '',
  };
  if (t.inputSchema !== undefined && t.inputSchema !== null) r.inputSchema = t.inputSchema as JsonValue;
  return r;
}

/** A schema that carries nothing: absent, null, not an object, or an object without keys. */
export function schemaMissing(schema: unknown): boolean {
  return schema === undefined || schema === null || typeof schema !== 'object' || Array.isArray(schema) || Object.keys(schema).length === 0;
}

function declaresProperties(schema: unknown): boolean {
  if (schemaMissing(schema)) return false;
  const p = (schema as Record<string, unknown>).properties;
  return typeof p === 'object' && p !== null && Object.keys(p).length > 0;
}

/**
 * Why the menu headline is not authoritative (null = it is): a tool without a schema on either
 * side, or a side where no tool declares any parameter (stub schemas, e.g. a REST export).
 */
export function headlineProblem(proxyTools: readonly ToolRecord[], upstreamTools: readonly ToolRecord[]): string | null {
  const problems: string[] = [];
  const side = (label: string, tools: readonly ToolRecord[]) => {
    const missing = tools.filter((t) => schemaMissing(t.inputSchema)).map((t) => t.tool_id);
    if (missing.length) {
      problems.push(`${missing.length} ${label} tool(s) without an inputSchema (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''})`);
    } else if (tools.length >= 2 && !tools.some((t) => declaresProperties(t.inputSchema))) {
      problems.push(`every ${label} schema is an empty stub (no tool declares a parameter)`);
    }
  };
  side('proxy', proxyTools);
  side('upstream', upstreamTools);
  if (upstreamTools.length === 0) problems.push('no upstream tools to compare with');
  return problems.length ? `schemas missing: ${problems.join('; ')}; savings and break-even withheld` : null;
}

async function callOnce(conn: McpConnection, tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<CallOutcome> {
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

function toQueryRow(r: QueryResult): QueryRow {
  const row: QueryRow = {
    query_id: r.query_id,
    query: r.query,
    first_relevant_rank: r.first_relevant_rank,
    recall_at_1: r.recall_at_1,
    recall_at_3: r.recall_at_3,
    recall_at_5: r.recall_at_5,
    recall_at_10: r.recall_at_10,
    rr: r.rr,
    ndcg_at_10: r.ndcg_at_10,
    ap: r.ap,
    comprehensive_at_5: r.comprehensive_at_5,
    top: r.top,
    gold: r.gold,
  };
  if (r.error) row.error = r.error;
  return row;
}

function toMetrics(s: RetrievalSummary): RetrievalMetrics {
  return { ...s.metrics } as unknown as RetrievalMetrics;
}

/** Measured state of one detail level. */
interface DetailRun {
  detail: Detail;
  /** per query: first successful text, first error, successful latencies */
  perQuery: { id: string; query: string; text?: string; error?: string; latencies: number[]; failedLatencies: number[]; failures: number; varied: boolean }[];
  timed: number[];
  warmup: number;
}

export async function runLive(opts: LiveOptions = {}): Promise<LiveReport> {
  const log = opts.log ?? (() => {});
  const discoveryTool = opts.discoveryTool ?? 'retrieve_tools';
  if (!discoveryTool.trim()) throw new UserError('--discovery-tool: empty name');
  const argNames: ArgNames = {
    query: opts.argNames?.query ?? 'query',
    limit: opts.argNames?.limit === undefined ? 'limit' : opts.argNames.limit,
    detail: opts.argNames?.detail === undefined ? 'detail' : opts.argNames.detail,
  };
  if (!argNames.query) throw new UserError('--query-arg: empty name');
  const limit = posInt(opts.limit, '--limit', 1, 10);
  const runs = posInt(opts.runs, '--runs', 1, 3);
  const warmupN = posInt(opts.warmup, '--warmup', 0, 2);
  const callTimeoutMs = posInt(opts.callTimeoutMs, '--call-timeout', 1, 30_000);
  const maxQueries = opts.maxQueries === undefined ? undefined : posInt(opts.maxQueries, '--live-queries', 1, 0);
  const wantDetails: Detail[] = opts.details ?? ['full', 'compact'];
  for (const d of wantDetails) if (d !== 'full' && d !== 'compact') throw new UserError(`detail must be "full" or "compact", got ${JSON.stringify(d)}`);
  // names checked now; the encodings are loaded after the calls (a run killed early never pays for them)
  const tokenizerNames = [...new Set(opts.tokenizers ?? [...TOKENIZER_NAMES])];
  for (const n of tokenizerNames) if (!isTokenizerName(n)) throw new UserError(`unknown tokenizer "${n}" (valid: ${TOKENIZER_NAMES.join(', ')})`);
  if (tokenizerNames.length === 0) throw new UserError(`no tokenizer given (valid: ${TOKENIZER_NAMES.join(', ')})`);

  // Corpus + golden (validated before any process starts).
  const corpusFile = opts.corpusFile ?? DEFAULT_CORPUS;
  const goldenFile = opts.goldenFile ?? DEFAULT_GOLDEN;
  const corpus: Corpus = await loadCorpus(corpusFile);
  let golden: GoldenSet = await loadGolden(goldenFile, corpus);
  if (maxQueries !== undefined && maxQueries < golden.queries.length) golden = { ...golden, queries: golden.queries.slice(0, maxQueries) };

  const errors: LiveError[] = [];
  const target: OpenedTarget = await openTarget(opts);
  let conn: McpConnection | undefined;
  try {
    try {
      conn = await connectMcp(target.proxy, { timeoutMs: opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, protocol: opts.protocol ?? 'legacy' });
    } catch (e) {
      throw new UserError(`live: ${oneLine((e as Error).message, 500)}`);
    }
    const sv = conn.client.getServerVersion();
    const proxyInfo: LiveReport['proxy'] = {};
    if (sv?.name) proxyInfo.server_name = sv.name;
    if (sv?.version) proxyInfo.server_version = sv.version;
    if (conn.protocolVersion) proxyInfo.protocol_version = conn.protocolVersion;
    if (target.retriever) proxyInfo.retriever = target.retriever;

    // --- menus over the wire
    const proxyWire = await conn.listAllTools();
    const dtool = proxyWire.find((t) => t.name === discoveryTool);
    if (!dtool) {
      throw new UserError(
        `${describeTarget(target.proxy)}: the proxy lists no tool named ${JSON.stringify(discoveryTool)} (it lists: ${proxyWire.map((t) => t.name).join(', ') || 'nothing'}); set --discovery-tool`,
      );
    }
    const declared = (schemaMissing(dtool.inputSchema) ? {} : ((dtool.inputSchema as Record<string, unknown>).properties ?? {})) as Record<string, unknown>;
    const details = wantDetails.filter((d) => d === 'full' || (argNames.detail !== null && argNames.detail in declared));
    if (wantDetails.includes('compact') && !details.includes('compact')) {
      errors.push({ where: 'menu', message: `compact detail not measured: ${discoveryTool} declares no ${JSON.stringify(argNames.detail)} argument` });
    }
    const sendDetail = argNames.detail !== null && argNames.detail in declared;
    // a limit goes out when the tool declares it (or declares nothing at all): strict proxies reject unknown arguments
    const sendLimit = argNames.limit !== null && (argNames.limit in declared || Object.keys(declared).length === 0);
    if (argNames.limit !== null && !sendLimit) {
      errors.push({ where: 'menu', message: `no limit sent: ${discoveryTool} declares no ${JSON.stringify(argNames.limit)} argument (the proxy's default applies)` });
    }
    if (argNames.query && Object.keys(declared).length > 0 && !(argNames.query in declared)) {
      errors.push({ where: 'menu', message: `${discoveryTool} declares no ${JSON.stringify(argNames.query)} argument (declared: ${Object.keys(declared).join(', ')}); set --query-arg` });
    }
    const proxyTools = proxyWire.map((t) => recordOf('proxy', t));

    let upstream: UpstreamMenu;
    if (target.upstreamMenu) upstream = target.upstreamMenu;
    else if (target.upstreams.length > 0) {
      log(`live: listing ${target.upstreams.length} upstreams from ${opts.upstreamsFile}`);
      const tools = await listUpstreams(target.upstreams, { timeoutMs: opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, protocol: opts.protocol }).catch((e: Error) => {
        throw new UserError(`${opts.upstreamsFile}: ${oneLine(e.message, 500)}`);
      });
      upstream = { tools, source: `tools/list of the upstreams in ${opts.upstreamsFile}`, live: true };
    } else {
      upstream = {
        tools: corpus.tools.map((t) => ({ server: t.server, tool: { name: t.tool, description: t.description, inputSchema: t.inputSchema } })),
        source: `corpus file ${corpusFile} (${corpus.version}; not listed live: pass --upstreams FILE to list the proxy's upstreams)`,
        live: false,
      };
    }
    const upstreamTools = upstream.tools.map((u) => recordOf(u.server, u.tool));
    const proxyListing = baselineArm.renderListing(proxyTools);
    const fullListing = baselineArm.renderListing(upstreamTools);
    const headlineReason = headlineProblem(proxyTools, upstreamTools);

    // --- discovery calls
    const argsFor = (query: string, detail: Detail): Record<string, unknown> => {
      const a: Record<string, unknown> = { [argNames.query]: query };
      if (sendLimit) a[argNames.limit!] = limit;
      if (sendDetail) a[argNames.detail!] = detail;
      return a;
    };
    const c = conn;
    const call = (query: string, detail: Detail) => callOnce(c, discoveryTool, argsFor(query, detail), callTimeoutMs);

    // readiness of external proxies that index in the background: wait until one of the first
    // golden queries returns results (an empty tools array for all of them = not indexed yet)
    if (target.kind !== 'embedded' && golden.queries.length > 0) {
      const readyMs = opts.readyTimeoutMs ?? 10_000;
      const deadline = Date.now() + readyMs;
      const probes = golden.queries.slice(0, 5);
      probing: for (;;) {
        for (const q of probes) {
          const r = await call(q.query, 'full');
          if (!r.ok) break probing;
          const p = partitionResponse(r.text!);
          if (p.resultCount > 0 || p.flag !== undefined) break probing;
        }
        if (Date.now() > deadline) {
          errors.push({ where: 'ready', message: `the proxy returned no results for the first ${probes.length} golden queries for ${readyMs} ms (not indexed yet?)` });
          break;
        }
        await new Promise((r2) => setTimeout(r2, 250));
      }
    }

    const detailRuns: DetailRun[] = [];
    for (const detail of details) {
      const dr: DetailRun = {
        detail,
        perQuery: golden.queries.map((q) => ({ id: q.id, query: q.query, latencies: [], failedLatencies: [], failures: 0, varied: false })),
        timed: [],
        warmup: 0,
      };
      for (let w = 0; w < warmupN && golden.queries.length > 0; w++) {
        const q = golden.queries[w % golden.queries.length];
        const r = await call(q.query, detail);
        dr.warmup++;
        if (!r.ok) errors.push({ where: `warmup:${q.id}/${detail}`, message: r.error! });
      }
      log(`live: ${detail}: ${golden.queries.length} queries x ${runs} runs`);
      for (let run = 0; run < runs; run++) {
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
        else if (pq.failures > 0) errors.push({ where: `query:${pq.id}/${detail}`, message: `${pq.failures} of ${runs} runs failed (first: ${pq.error})` });
      }
      const varied = dr.perQuery.filter((pq) => pq.varied).map((pq) => pq.id);
      if (varied.length > 0) {
        errors.push({
          where: `determinism/${detail}`,
          message: `the response text differed between runs for ${varied.length} quer${varied.length === 1 ? 'y' : 'ies'} (${varied.slice(0, 5).join(', ')}${varied.length > 5 ? ', …' : ''}); the first successful response is measured`,
        });
      }
      detailRuns.push(dr);
    }

    // --- tokens: menus (both sides rendered like the baseline_json arm)
    const tokenizers: Tokenizer[] = tokenizerNames.map((n) => getTokenizer(n));
    const cl100k = getTokenizer('cl100k_base');
    const menus: LiveMenu[] = tokenizers.map((tk) => ({
      tokenizer: tk.name,
      proxy_menu_tokens: { value: tk.count(proxyListing), unit: 'tokens', provenance: 'measured', tokenizer: tk.name, n: proxyTools.length },
      full_menu_tokens: { value: tk.count(fullListing), unit: 'tokens', provenance: upstream.live ? 'measured' : 'estimated', tokenizer: tk.name, n: upstreamTools.length },
      proxy_tool_count: proxyTools.length,
      upstream_tool_count: upstreamTools.length,
    }));

    // --- responses: exact text, spans, tokens
    const responses: LiveResponseRow[] = [];
    const response_summary: LiveResponseSummary[] = [];
    const partitions = new Map<string, ResponsePartition>();
    const flagged = new Set<string>();
    for (const dr of detailRuns) {
      for (const pq of dr.perQuery) {
        if (pq.text !== undefined) {
          const p = partitionResponse(pq.text);
          partitions.set(`${dr.detail}\u0000${pq.id}`, p);
          if (p.flag && !flagged.has(dr.detail)) {
            flagged.add(dr.detail);
            errors.push({ where: `spans:${pq.id}/${dr.detail}`, message: p.flag });
          }
        }
      }
    }
    for (const tk of tokenizers) {
      for (const dr of detailRuns) {
        const totals: number[] = [];
        for (const pq of dr.perQuery) {
          // per row: the median over the runs (of the failed calls for an error row)
          const latency = round3(percentile(pq.latencies.length ? pq.latencies : pq.failedLatencies, 50) || 0);
          if (pq.text === undefined) {
            responses.push({ query_id: pq.id, detail: dr.detail, tokenizer: tk.name, ok: false, error: pq.error ?? 'failed', latency_ms: latency });
            continue;
          }
          const p = partitions.get(`${dr.detail}\u0000${pq.id}`)!;
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
          });
        }
      }
    }

    // --- retrieval: the proxy's own ranking
    const retrieval: LiveRetrieval[] = [];
    for (const dr of detailRuns) {
      const byQuery = new Map<string, (typeof dr.perQuery)[number]>();
      for (const pq of dr.perQuery) if (!byQuery.has(pq.query)) byQuery.set(pq.query, pq);
      const search = (query: string): string[] => {
        const pq = byQuery.get(query);
        if (!pq) throw new Error('query not measured');
        if (pq.text === undefined) throw new Error(pq.error ?? 'discovery call failed');
        const p = partitions.get(`${dr.detail}\u0000${pq.id}`)!;
        if (!p.json) throw new Error(p.flag ?? 'response is not JSON');
        return p.ranking;
      };
      const scored = await scoreGolden(search, golden, { k: 10, bootstrap: opts.bootstrap });
      const r: LiveRetrieval = {
        detail: dr.detail,
        query_count: scored.summary.query_count,
        errors: scored.summary.errors,
        summary: toMetrics(scored.summary),
        per_query: scored.perQuery.map(toQueryRow),
      };
      if (golden.version) r.golden_version = golden.version;
      retrieval.push(r);
    }

    // --- latency
    const latency: LiveLatency[] = detailRuns
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
      }));

    // --- economics from the measured inputs
    const break_even: BreakEvenRow[] = [];
    const curves: BreakEvenCurvePoint[] = [];
    const session_estimates: SessionEstimateRow[] = [];
    for (const m of menus) {
      for (const s of response_summary.filter((x) => x.tokenizer === m.tokenizer)) {
        const arm = `proxy_${s.detail}`;
        const base = { corpus_id: corpus.id, arm, tokenizer: m.tokenizer };
        for (const row of sessionEstimates({ menuTokens: m.proxy_menu_tokens.value, meanResponseTokens: s.mean, retryRate: 0 })) {
          session_estimates.push({ ...base, calls_per_session: row.calls_per_session, retry_rate: row.retry_rate, menu_tokens: row.menu_tokens, mean_response_tokens: row.mean_response_tokens, estimated_tokens: row.estimated_tokens, provenance: 'estimated' });
        }
        if (headlineReason) continue;
        const input = { fullMenuTokens: m.full_menu_tokens.value, discoveryMenuTokens: m.proxy_menu_tokens.value, meanResponseTokens: s.mean };
        if (input.fullMenuTokens > input.discoveryMenuTokens && s.mean <= 0) continue;
        const be = breakEven(input);
        const row: BreakEvenRow = {
          ...base,
          full_menu_tokens: be.full_menu_tokens,
          discovery_menu_tokens: be.discovery_menu_tokens,
          mean_response_tokens: be.mean_response_tokens,
          break_even_calls: be.break_even_calls,
          no_break_even: be.no_break_even,
          provenance: 'computed',
        };
        if (be.reason) row.reason = be.reason;
        break_even.push(row);
        for (const p of breakEvenCurve(input).points) curves.push({ ...base, calls: p.calls, full_menu_tokens: p.full_menu_tokens, discovery_tokens: p.discovery_tokens });
      }
    }

    // --- LAP
    const lap = await lapSection({
      lapJson: opts.lapJson,
      mode: opts.lap,
      lapCommand: opts.lapCommand,
      inHouseMenuTokens: cl100k.count(proxyListing),
      httpUrl: target.httpUrl,
    });
    if (lap.warning) errors.push({ where: 'lap', message: lap.warning });

    const description = `${target.description}; full menu from ${upstream.source}`;
    const report: LiveReport = {
      target: { kind: target.kind, description, discovery_tool: discoveryTool, arg_names: { query: argNames.query, limit: argNames.limit, detail: argNames.detail } },
      proxy: proxyInfo,
      corpus_id: corpus.id,
      menus,
      authoritative_headline: headlineReason === null,
      responses,
      response_summary,
      retrieval,
      latency,
      economics: { break_even, session_estimates, curves },
      lap,
      errors,
    };
    if (headlineReason) report.headline_reason = headlineReason;
    return report;
  } finally {
    if (conn) await conn.close();
    await target.close();
  }
}
export { liveOptionsFromFlags, LIVE_FLAGS, type LiveFlag } from './flags.ts';
