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
 * - LAP: merged from `--lap-json`, else the pinned lap-score run from its venv (lap.ts, lap_venv.ts), else skipped; never fails the run.
 * A failing query is an error row (and an `errors[]` entry), never an aborted run.
 */
import { connectMcp, describeTarget, type McpConnection, type McpTarget, type WireTool } from '../mcp/client.ts';
import { UserError, type Corpus, type GoldenSet, type JsonValue, type ToolRecord } from '../types.ts';
import { getTokenizer, isTokenizerName } from '../tokens/tokenizer.ts';
import { loadCorpus } from '../corpus/load.ts';
import { loadGolden } from '../corpus/golden.ts';
import { getArm } from '../../arms/registry.ts';
import type { Detail, LiveError, LiveReport, LiveStatus } from '../report/types.ts';
import { cheapCallLatency, comparePassthroughMenus } from './passthrough.ts';
import { BASELINE_ARM_ID, DEFAULT_CORPUS, DEFAULT_GOLDEN, TOKENIZER_NAMES } from '../constants.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS, listUpstreams, openTarget, type OpenedTarget, type UpstreamMenu } from './proxy-under-test.ts';
import { lapSection } from './lap.ts';
import { callOnce, measureDetail, oneLine, waitUntilIndexed, type DetailRun, type DiscoveryCall } from './calls.ts';
import { countMenus, countResponses, latencyRows, liveEconomics, partitionAll, scoreProxyRankings } from './results.ts';
import { resultCostStage, taskSessions } from './result_cost.ts';
import type { ArgNames, LiveOptions } from './types.ts';

export type { ArgNames, LiveOptions } from './types.ts';

function posInt(v: unknown, name: string, min: number, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new UserError(`${name} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return v;
}

/** A wire tool as a ToolRecord (for the baseline_json renderer). */
export function recordOf(server: string, t: WireTool): ToolRecord {
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

/** Resolved, validated live options (stage 1). */
export interface LiveSettings {
  discoveryTool: string;
  argNames: ArgNames;
  limit: number;
  runs: number;
  warmup: number;
  callTimeoutMs: number;
  maxQueries?: number;
  wantDetails: Detail[];
  tokenizerNames: string[];
  corpusFile: string;
  goldenFile: string;
  style: 'auto' | 'discovery' | 'passthrough';
  /** who set a non-auto style (e.g. a preset) */
  styleSource: string;
  allowVersionMismatch: boolean;
  noGolden: boolean;
  maxErrorRate: number;
}

function maxErrorRate(v: number | undefined): number {
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) throw new UserError(`--max-error-rate must be a number in 0..1, got ${JSON.stringify(v)}`);
  return v;
}

function resolveSettings(opts: LiveOptions): LiveSettings {
  const discoveryTool = opts.discoveryTool ?? 'retrieve_tools';
  if (!discoveryTool.trim()) throw new UserError('--discovery-tool: empty name');
  const argNames: ArgNames = {
    query: opts.argNames?.query ?? 'query',
    limit: opts.argNames?.limit === undefined ? 'limit' : opts.argNames.limit,
    detail: opts.argNames?.detail === undefined ? 'detail' : opts.argNames.detail,
  };
  if (!argNames.query) throw new UserError('--query-arg: empty name');
  const wantDetails: Detail[] = opts.details ?? ['full', 'compact'];
  for (const d of wantDetails) if (d !== 'full' && d !== 'compact') throw new UserError(`detail must be "full" or "compact", got ${JSON.stringify(d)}`);
  // names checked now; the encodings are loaded after the calls (a run killed early never pays for them)
  const tokenizerNames = [...new Set(opts.tokenizers ?? [...TOKENIZER_NAMES])];
  for (const n of tokenizerNames) if (!isTokenizerName(n)) throw new UserError(`unknown tokenizer "${n}" (valid: ${TOKENIZER_NAMES.join(', ')})`);
  if (tokenizerNames.length === 0) throw new UserError(`no tokenizer given (valid: ${TOKENIZER_NAMES.join(', ')})`);
  return {
    discoveryTool,
    argNames,
    limit: posInt(opts.limit, '--limit', 1, 10),
    runs: posInt(opts.runs, '--runs', 1, 3),
    warmup: posInt(opts.warmup, '--warmup', 0, 2),
    callTimeoutMs: posInt(opts.callTimeoutMs, '--call-timeout', 1, 30_000),
    maxQueries: opts.maxQueries === undefined ? undefined : posInt(opts.maxQueries, '--live-queries', 1, 0),
    wantDetails,
    tokenizerNames,
    corpusFile: opts.corpusFile ?? DEFAULT_CORPUS,
    goldenFile: opts.goldenFile ?? DEFAULT_GOLDEN,
    style: opts.style ?? 'auto',
    styleSource: opts.styleSource ?? '--style',
    allowVersionMismatch: opts.allowVersionMismatch === true,
    noGolden: opts.noGolden === true,
    maxErrorRate: maxErrorRate(opts.maxErrorRate),
  };
}

/** Stage 2: corpus + golden set, validated before any process starts. */
async function loadQueries(s: LiveSettings): Promise<{ corpus: Corpus; golden: GoldenSet }> {
  const corpus = await loadCorpus(s.corpusFile);
  if (s.noGolden) return { corpus, golden: { corpus_version: corpus.version, queries: [] } };
  let golden = await loadGolden(s.goldenFile, corpus, { allowCorpusVersionMismatch: s.allowVersionMismatch });
  if (s.maxQueries !== undefined && s.maxQueries < golden.queries.length) golden = { ...golden, queries: golden.queries.slice(0, s.maxQueries) };
  return { corpus, golden };
}

/** Stage 3: connect to the proxy; the server's self-description. */
async function connectProxy(target: OpenedTarget, opts: LiveOptions, log: (m: string) => void): Promise<{ conn: McpConnection; proxyInfo: LiveReport['proxy'] }> {
  let conn: McpConnection;
  const co = { timeoutMs: opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, protocol: opts.protocol ?? 'legacy' } as const;
  try {
    conn = await connectMcp(target.proxy, co);
  } catch (e) {
    const msg = (e as Error).message;
    // --transport auto: no streamable-HTTP endpoint (404/405) -> the deprecated HTTP+SSE transport
    const p = target.proxy;
    if (target.kind === 'url' && (opts.transport ?? 'auto') === 'auto' && p.kind === 'http' && /HTTP 40[45]\b/.test(msg)) {
      const sse = sseFallback(p);
      log(`live: streamable HTTP at ${p.url} answered ${/HTTP (40[45])/.exec(msg)![1]}; trying SSE at ${describeTarget(sse)}`);
      try {
        conn = await connectMcp(sse, co);
      } catch (e2) {
        throw new UserError(`live: ${oneLine(msg, 300)}; SSE fallback: ${oneLine((e2 as Error).message, 300)}`);
      }
      target.proxy = sse;
      log(`live: connected over SSE (${describeTarget(sse)})`);
    } else throw new UserError(`live: ${oneLine(msg, 500)}`);
  }
  const sv = conn.client.getServerVersion();
  const proxyInfo: LiveReport['proxy'] = {};
  if (sv?.name) proxyInfo.server_name = sv.name;
  if (sv?.version) proxyInfo.server_version = sv.version;
  if (conn.protocolVersion) proxyInfo.protocol_version = conn.protocolVersion;
  if (target.retriever) proxyInfo.retriever = target.retriever;
  return { conn, proxyInfo };
}

/** The SSE target for a streamable-HTTP URL: same URL, or /sse when /mcp was only the default path. */
function sseFallback(t: Extract<McpTarget, { kind: 'http' }>): Extract<McpTarget, { kind: 'sse' }> {
  const u = new URL(t.url);
  if (u.pathname === '/mcp') u.pathname = '/sse';
  return { kind: 'sse', url: u.toString(), headers: t.headers };
}

/**
 * Discovery proxy or pass-through gateway. auto: discovery when tools/list has the discovery tool
 * (measuring discovery needs only that tool; the adapter's call tool is not required here).
 */
function liveStyle(proxyWire: WireTool[], s: LiveSettings): { style: 'discovery' | 'passthrough'; reason: string } {
  if (s.style !== 'auto') return { style: s.style, reason: `set by ${s.styleSource}` };
  return proxyWire.some((t) => t.name === s.discoveryTool)
    ? { style: 'discovery', reason: `tools/list has ${s.discoveryTool}` }
    : { style: 'passthrough', reason: `tools/list has no ${s.discoveryTool}: the upstream tools are listed directly (${proxyWire.length} tools)` };
}

/** How discovery calls are made: which details are measured and which arguments are sent. */
export interface CallPlan {
  details: Detail[];
  sendDetail: boolean;
  sendLimit: boolean;
  proxyTools: ToolRecord[];
}

/** Stage 4: the proxy's own tools/list and what its discovery tool declares. */
export function planCalls(proxyWire: WireTool[], s: LiveSettings, target: OpenedTarget, errors: LiveError[]): CallPlan {
  const { discoveryTool, argNames } = s;
  const dtool = proxyWire.find((t) => t.name === discoveryTool);
  if (!dtool) {
    throw new UserError(
      `${describeTarget(target.proxy)}: the proxy lists no tool named ${JSON.stringify(discoveryTool)} (it lists: ${proxyWire.map((t) => t.name).join(', ') || 'nothing'}); set --discovery-tool`,
    );
  }
  const declared = (schemaMissing(dtool.inputSchema) ? {} : ((dtool.inputSchema as Record<string, unknown>).properties ?? {})) as Record<string, unknown>;
  const details = s.wantDetails.filter((d) => d === 'full' || (argNames.detail !== null && argNames.detail in declared));
  if (s.wantDetails.includes('compact') && !details.includes('compact')) {
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
  return { details, sendDetail, sendLimit, proxyTools: proxyWire.map((t) => recordOf('proxy', t)) };
}

/** Stage 5: the full menu: listed from the upstreams, known from the embedded target, or the corpus file (labelled). */
async function upstreamMenu(target: OpenedTarget, corpus: Corpus, s: LiveSettings, opts: LiveOptions, log: (m: string) => void): Promise<UpstreamMenu> {
  if (target.upstreamMenu) return target.upstreamMenu;
  if (target.upstreams.length > 0) {
    log(`live: listing ${target.upstreams.length} upstreams from ${opts.upstreamsFile}`);
    const tools = await listUpstreams(target.upstreams, { timeoutMs: opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, protocol: opts.protocol }).catch((e: Error) => {
      throw new UserError(`${opts.upstreamsFile}: ${oneLine(e.message, 500)}`);
    });
    return { tools, source: `tools/list of the upstreams in ${opts.upstreamsFile}`, live: true };
  }
  return {
    tools: corpus.tools.map((t) => ({ server: t.server, tool: { name: t.tool, description: t.description, inputSchema: t.inputSchema } })),
    source: `corpus file ${s.corpusFile} (${corpus.version}; not listed live: pass --upstreams FILE to list the proxy's upstreams)`,
    live: false,
  };
}

/** `turns`: side-by-side systems pass every call through one FIFO turnstile (systems/turnstile.ts) */
function discoveryCall(conn: McpConnection, s: LiveSettings, plan: CallPlan, turns?: LiveOptions['turns']): DiscoveryCall {
  const argsFor = (query: string, detail: Detail): Record<string, unknown> => {
    const a: Record<string, unknown> = { [s.argNames.query]: query };
    if (plan.sendLimit) a[s.argNames.limit!] = s.limit;
    if (plan.sendDetail) a[s.argNames.detail!] = detail;
    return a;
  };
  return (query, detail) => {
    const once = () => callOnce(conn, s.discoveryTool, argsFor(query, detail), s.callTimeoutMs);
    return turns ? turns.run(once) : once();
  };
}

/**
 * The live stage, as named stages: settings -> queries -> target + connection -> call plan ->
 * full menu -> (readiness) -> measured calls per detail -> tokens (menus, responses) ->
 * proxy retrieval -> latency -> economics -> result cost (result_cost.ts: golden calls through
 * the proxy and directly) -> LAP -> the report section.
 */
export async function runLive(opts: LiveOptions = {}): Promise<LiveReport> {
  const log = opts.log ?? (() => {});
  const s = resolveSettings(opts);
  const { corpus, golden } = await loadQueries(s);
  const errors: LiveError[] = [];
  const notComputed: { what: string; reason: string }[] = [];
  const target: OpenedTarget = await openTarget(opts);
  let conn: McpConnection | undefined;
  try {
    const connected = await connectProxy(target, opts, log);
    conn = connected.conn;
    const proxyWire = await conn.listAllTools();
    const style = liveStyle(proxyWire, s);
    log(`live: style ${style.style} (${style.reason})`);
    const plan: CallPlan =
      style.style === 'discovery' ? planCalls(proxyWire, s, target, errors) : { details: [], sendDetail: false, sendLimit: false, proxyTools: proxyWire.map((t) => recordOf('proxy', t)) };
    const upstream = await upstreamMenu(target, corpus, s, opts, log);
    const upstreamTools = upstream.tools.map((u) => recordOf(u.server, u.tool));
    // both menus are rendered like the baseline arm
    const baselineArm = getArm(BASELINE_ARM_ID);
    const proxyListing = baselineArm.renderListing(plan.proxyTools);
    const fullListing = baselineArm.renderListing(upstreamTools);
    const headlineReason = headlineProblem(plan.proxyTools, upstreamTools);

    // calls by purpose: readiness probes and warm-up calls never count towards the measured figures
    const counts = { readiness: { n: 0, errors: 0 }, warmup: { n: 0, errors: 0 }, measured: { n: 0, errors: 0 } };
    const detailRuns: DetailRun[] = [];
    let cheap: Awaited<ReturnType<typeof cheapCallLatency>> | undefined;
    let discovery: NonNullable<LiveReport['discovery']>;
    if (style.style === 'passthrough') {
      discovery = { status: 'not_applicable', reason: 'pass-through: the proxy lists the upstream tools directly; no golden query is sent to an arbitrary tool' };
    } else if (s.noGolden) {
      discovery = { status: 'not_measured', reason: '--golden none: no discovery queries were sent' };
    } else {
      discovery = { status: 'measured' };
      const base = discoveryCall(conn, s, plan, opts.turns);
      let phase: keyof typeof counts = 'readiness';
      const call: DiscoveryCall = async (q, d) => {
        const r = await base(q, d);
        counts[phase].n++;
        if (!r.ok) counts[phase].errors++;
        return r;
      };
      if (target.kind !== 'embedded' && golden.queries.length > 0) await waitUntilIndexed(call, golden, opts.readyTimeoutMs ?? 10_000, errors);
      for (const detail of plan.details) {
        phase = 'warmup';
        const warm = s.warmup;
        let seen = 0;
        // measureDetail makes the warm-up calls first, then the measured passes
        const phased: DiscoveryCall = async (q, d) => {
          phase = seen++ < Math.min(warm, golden.queries.length > 0 ? warm : 0) ? 'warmup' : 'measured';
          return call(q, d);
        };
        detailRuns.push(await measureDetail(phased, detail, golden, { runs: s.runs, warmup: s.warmup }, errors, log));
      }
    }
    if (discovery.status !== 'measured') {
      // menus and the latency of a cheap call only
      cheap = await cheapCallLatency(conn, s.runs, s.warmup, s.callTimeoutMs);
      counts.warmup.n += s.warmup;
      counts.measured.n += s.runs;
      counts.measured.errors += cheap.errors.length;
      for (const e of cheap.errors.slice(0, 3)) errors.push({ where: 'cheap_call', message: e });
      notComputed.push({ what: 'responses, retrieval, break-even', reason: discovery.reason ?? '' });
    }
    const tokenizers = s.tokenizerNames.map((n) => getTokenizer(n));
    const menus = countMenus(tokenizers, { proxyListing, fullListing, proxyToolCount: plan.proxyTools.length, upstreamToolCount: upstreamTools.length, upstreamLive: upstream.live });
    const partitions = partitionAll(detailRuns, errors);
    const { responses, response_summary } = countResponses(tokenizers, detailRuns, partitions);
    const retrieval = await scoreProxyRankings(detailRuns, partitions, golden, opts.bootstrap);
    const latency = latencyRows(detailRuns, s.runs);
    // savings and break-even only against the full menu of the upstreams this proxy fronts
    const economics = upstream.live || discovery.status !== 'measured' ? liveEconomics(menus, response_summary, corpus.id, headlineReason) : { break_even: [], session_estimates: [], curves: [] };
    if (!upstream.live && discovery.status === 'measured') {
      notComputed.push({ what: 'break-even and menu savings', reason: `the full menu was not listed from the upstreams this proxy fronts (${upstream.source}); pass --upstreams FILE` });
    }
    for (const r of retrieval) if (!r.summary) notComputed.push({ what: `retrieval (${r.detail})`, reason: r.not_computed_reason ?? 'no usable response' });
    const passthrough = style.style === 'passthrough' && upstreamTools.length > 0 && upstream.live ? comparePassthroughMenus(plan.proxyTools, upstreamTools, getTokenizer(tokenizers[0].name), (t) => baselineArm.renderListing(t), opts.toolMap) : undefined;
    if (style.style === 'passthrough' && !passthrough) notComputed.push({ what: 'pass-through menu comparison', reason: `no upstream menu listed live (${upstream.source}); pass --upstreams FILE` });
    const resultCost =
      discovery.status === 'measured'
        ? await resultCostStage({
            opts, conn, proxyToolNames: proxyWire.map((t) => t.name), golden, detailRuns, partitions, upstream, corpusTools: corpus.tools, target, tokenizers, callTimeoutMs: s.callTimeoutMs, log,
          })
        : undefined;
    if (resultCost) {
      economics.task_sessions = taskSessions(corpus.id, menus, response_summary, resultCost);
      if (resultCost.missing_call_tool) errors.push({ where: 'result_cost', message: resultCost.missing_call_tool });
      // a result call is a measured call: a failed one is an error row and counts against --max-error-rate
      const first = tokenizers[0]?.name;
      for (const r of resultCost.rows.filter((x) => x.tokenizer === first)) {
        counts.measured.n++;
        if (!r.ok) {
          counts.measured.errors++;
          errors.push({ where: `result_call:${r.query_id}`, message: `${r.call_tool ?? resultCost.call_tool} ${r.tool_id}: ${r.error ?? 'failed'}` });
        }
      }
      if (resultCost.call_with_used) log(`live: result cost: ${resultCost.call_with_used} call(s) used the call tool named by the proxy's call_with`);
    }
    const lap = await lapSection({
      lapJson: opts.lapJson,
      mode: opts.lap,
      lapCommand: opts.lapCommand,
      inHouseMenuTokens: getTokenizer('cl100k_base').count(proxyListing),
      httpUrl: target.httpUrl,
      target: target.proxy,
      log,
    });
    if (lap.warning) errors.push({ where: 'lap', message: lap.warning });

    const measured = counts.measured;
    const errorRate = measured.n === 0 ? 0 : measured.errors / measured.n;
    const status: LiveStatus = { state: errorRate > s.maxErrorRate ? 'failed' : 'ok', error_rate: errorRate, max_error_rate: s.maxErrorRate, measured_calls: measured.n, failed_calls: measured.errors };
    if (status.state === 'failed') status.reason = `${measured.errors} of ${measured.n} measured calls failed (error rate ${errorRate.toFixed(3)} > --max-error-rate ${s.maxErrorRate})`;
    const transport = target.proxy.kind === 'stdio' ? 'stdio' : target.proxy.kind === 'sse' ? 'sse' : 'streamable-http';
    const report: LiveReport = {
      target: { kind: target.kind, description: `${target.description}; full menu from ${upstream.source}`, discovery_tool: s.discoveryTool, arg_names: { ...s.argNames }, transport },
      style: style.style,
      style_reason: style.reason,
      discovery,
      calls: counts,
      status,
      ...(passthrough ? { passthrough } : {}),
      ...(cheap?.row ? { cheap_call: { ...cheap.row, mean_ms: cheap.row.mean_ms ?? 0 } } : {}),
      ...(notComputed.length ? { not_computed: notComputed } : {}),
      proxy: connected.proxyInfo,
      corpus_id: corpus.id,
      menus,
      authoritative_headline: headlineReason === null,
      responses,
      response_summary,
      retrieval,
      latency,
      economics,
      ...(resultCost ? { result_cost: resultCost } : {}),
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
