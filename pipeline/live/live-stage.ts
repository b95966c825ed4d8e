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
 *
 * The stages live in their own files: settings.ts (options, queries), connect.ts (the
 * connection), call-plan.ts (style, call plan, full menu), measure.ts (the measurement loop),
 * results.ts (tokens, retrieval, latency, economics), result_cost.ts, lap.ts, live-report.ts
 * (status and the report section). This file runs them in order.
 */
import type { McpConnection, WireTool } from '../mcp/client.ts';
import type { Corpus, GoldenSet, ToolRecord } from '../types.ts';
import { toolRecordOf } from '../mcp/tool-record.ts';
import { getTokenizer } from '../tokens/tokenizer.ts';
import { getArm } from '../../arms/registry.ts';
import type { LiveError, LiveReport } from '../report/index.ts';
import { comparePassthroughMenus } from './passthrough.ts';
import { BASELINE_ARM_ID } from '../constants.ts';
import { openTarget, type OpenedTarget, type UpstreamMenu } from './proxy-under-test.ts';
import { lapSection } from './lap.ts';
import { countMenus, countResponses, latencyRows, liveEconomics, partitionAll, scoreProxyRankings } from './results.ts';
import { resultCostStage } from './result_cost.ts';
import { loadQueries, resolveSettings, type LiveSettings } from './settings.ts';
import { connectProxy } from './connect.ts';
import { liveStyle, planCalls, upstreamMenu, type CallPlan } from './call-plan.ts';
import { headlineProblem } from './headline.ts';
import { measureCalls, type Measured } from './measure.ts';
import { assembleLiveReport, countResultCalls } from './live-report.ts';
import type { LiveOptions } from './types.ts';

export type { ArgNames, LiveOptions } from './types.ts';

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
      style.style === 'discovery'
        ? planCalls(proxyWire, s, target, errors)
        : { details: [], sendDetail: false, sendLimit: false, proxyTools: proxyWire.map((t) => toolRecordOf('proxy', t)) };
    const upstream = await upstreamMenu(target, corpus, s, opts, log);
    const upstreamTools = upstream.tools.map((u) => toolRecordOf(u.server, u.tool));
    const headlineReason = headlineProblem(plan.proxyTools, upstreamTools);
    const measured = await measureCalls({
      conn,
      s,
      plan,
      style: style.style,
      golden,
      probeReadiness: target.kind !== 'embedded',
      opts,
      errors,
      notComputed,
      log,
    });
    const run: LiveRun = {
      s,
      opts,
      conn,
      target,
      corpus,
      golden,
      proxyWire,
      plan,
      upstream,
      upstreamTools,
      headlineReason,
      measured,
      errors,
      notComputed,
      log,
    };
    const figures = await measuredFigures(run, style.style);
    return assembleLiveReport({
      target,
      upstream,
      s,
      style,
      measured,
      notComputed,
      proxyInfo: connected.proxyInfo,
      corpusId: corpus.id,
      headlineReason,
      ...figures,
      errors,
    });
  } finally {
    if (conn) await conn.close();
    await target.close();
  }
}

/** What the figure stages read: the run so far. */
interface LiveRun {
  s: LiveSettings;
  opts: LiveOptions;
  conn: McpConnection;
  target: OpenedTarget;
  corpus: Corpus;
  golden: GoldenSet;
  proxyWire: WireTool[];
  plan: CallPlan;
  upstream: UpstreamMenu;
  upstreamTools: ToolRecord[];
  headlineReason: string | null;
  measured: Measured;
  errors: LiveError[];
  notComputed: { what: string; reason: string }[];
  log: (m: string) => void;
}

/** Tokens (menus, responses), retrieval, latency, economics, the pass-through comparison, result cost and LAP, from the measured calls. */
async function measuredFigures(r: LiveRun, style: 'discovery' | 'passthrough') {
  const { s, opts, upstream, upstreamTools, plan, measured, errors, notComputed, headlineReason } = r;
  const { detailRuns, discovery } = measured;
  // both menus are rendered like the baseline arm
  const baselineArm = getArm(BASELINE_ARM_ID);
  const proxyListing = baselineArm.renderListing(plan.proxyTools);
  const fullListing = baselineArm.renderListing(upstreamTools);
  const tokenizers = s.tokenizerNames.map((n) => getTokenizer(n));
  const menus = countMenus(tokenizers, {
    proxyListing,
    fullListing,
    proxyToolCount: plan.proxyTools.length,
    upstreamToolCount: upstreamTools.length,
    upstreamLive: upstream.live,
  });
  const partitions = partitionAll(detailRuns, errors);
  const { responses, response_summary } = countResponses(tokenizers, detailRuns, partitions);
  const retrieval = await scoreProxyRankings(detailRuns, partitions, r.golden, opts.bootstrap);
  const latency = latencyRows(detailRuns, s.runs);
  // savings and break-even only against the full menu of the upstreams this proxy fronts
  const economics =
    upstream.live || discovery.status !== 'measured'
      ? liveEconomics(menus, response_summary, r.corpus.id, headlineReason)
      : { break_even: [], session_estimates: [], curves: [] };
  if (!upstream.live && discovery.status === 'measured') {
    notComputed.push({
      what: 'break-even and menu savings',
      reason: `the full menu was not listed from the upstreams this proxy fronts (${upstream.source}); pass --upstreams FILE`,
    });
  }
  for (const x of retrieval)
    if (!x.summary) notComputed.push({ what: `retrieval (${x.detail})`, reason: x.not_computed_reason ?? 'no usable response' });
  const passthrough =
    style === 'passthrough' && upstreamTools.length > 0 && upstream.live
      ? comparePassthroughMenus(
          plan.proxyTools,
          upstreamTools,
          getTokenizer(tokenizers[0].name),
          (t) => baselineArm.renderListing(t),
          opts.toolMap,
        )
      : undefined;
  if (style === 'passthrough' && !passthrough)
    notComputed.push({
      what: 'pass-through menu comparison',
      reason: `no upstream menu listed live (${upstream.source}); pass --upstreams FILE`,
    });
  const resultCost =
    discovery.status === 'measured'
      ? await resultCostStage({
          opts,
          conn: r.conn,
          proxyToolNames: r.proxyWire.map((t) => t.name),
          golden: r.golden,
          detailRuns,
          partitions,
          upstream,
          corpusTools: r.corpus.tools,
          target: r.target,
          tokenizers,
          callTimeoutMs: s.callTimeoutMs,
          log: r.log,
        })
      : undefined;
  if (resultCost)
    countResultCalls(resultCost, economics, {
      corpusId: r.corpus.id,
      menus,
      responseSummary: response_summary,
      firstTokenizer: tokenizers[0]?.name,
      counts: measured.counts,
      errors,
      log: r.log,
    });
  const lap = await lapSection({
    lapJson: opts.lapJson,
    mode: opts.lap,
    lapCommand: opts.lapCommand,
    inHouseMenuTokens: getTokenizer('cl100k_base').count(proxyListing),
    httpUrl: r.target.httpUrl,
    target: r.target.proxy,
    log: r.log,
  });
  // a LAP divergence is a warning (live.lap.warning, shown as one), not an error row
  return { figures: { menus, responses, response_summary, retrieval, latency, economics, lap }, passthrough, resultCost };
}
