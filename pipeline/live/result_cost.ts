/**
 * Live result cost: what a tool's RESULT costs once the proxy has found the tool.
 *
 * For every golden query that carries a `call` (tool + arguments), the stage checks that the
 * proxy's top-1 tool for the query (its full-detail ranking; `topK` widens this to the first K
 * results, the row records the rank) is that tool and that the tool is
 * safe to call (annotated `readOnlyHint: true` in the upstream listing, or listed in the golden
 * set's `call_allow`), then calls it twice with the same arguments:
 *   - through the proxy's call tool (`call_tool {name, arguments}`), and
 *   - directly on the upstream server (a separate connection to the same server config),
 * and counts each result under every tokenizer, split by component over the compact JSON of the
 * result object as the MCP client returns it: `content_text` (the text of text blocks),
 * `content_other` (the payload of other blocks: image/audio data, embedded resources, resource
 * link fields), `structured_content`, `meta` (`_meta`), `wrapper` (everything else: keys, block
 * type tags, annotations, isError). Components sum exactly to the total (byte-span attribution, each
 * token to the span holding its first byte). Proxy overhead per call = proxy total - direct total.
 * The call itself (`{name, arguments}` the model writes) is counted as `call_tokens`, with the
 * golden set's placeholders as it writes them (`<ALLOWED_DIR>/data/sales.csv`), not the folder
 * this run filled in: that folder is a fresh temporary one (its random name changed the count by
 * a few tokens from run to run, and its place differs between machines), so the same call costs
 * the same on every run and machine, and `diff` sees no change where there is none.
 * Skips (not top-1, not safe, unresolved placeholder, no call tool) are rows with the reason.
 */
import { connectMcp, type CallResult, type McpConnection, type ProtocolChoice } from '../mcp/client.ts';
import { targetOf, type UpstreamConfig } from '../proxy/config.ts';
import type { Span, Tokenizer } from '../tokens/tokenizer.ts';
import type { GoldenSet, JsonValue } from '../types.ts';
import { mean, percentile } from '../util/stats.ts';
import { taskSessionEstimates } from '../economics/session.ts';
import type { ResponsePartition } from './spans.ts';
import { fillPlaceholders } from '../toolresults/seed.ts';
import type { DetailRun } from './calls.ts';
import type { OpenedTarget, UpstreamMenu } from './proxy-under-test.ts';
import type { LiveOptions } from './types.ts';

import {
  RESULT_COMPONENTS,
  type LiveResultCallRow,
  type LiveResultCost,
  type LiveResultSkip,
  type LiveResultSummary,
  type ResultComponent,
  type ResultComponents,
  type ResultTokens,
  type TaskSessionEstimateRow,
} from '../report/index.ts';

export interface ResultCallsInput {
  proxy: McpConnection;
  /** the proxy's tool that runs an upstream tool (default call_tool) */
  callTool: string;
  /** its argument names: the upstream tool's name (default name) and its arguments (default arguments) */
  callNameArg?: string;
  callArgsArg?: string;
  /** the call tool the proxy's response names for a result (`call_with`), by query and tool id */
  callWith?: (queryId: string, toolId: string) => string | undefined;
  /** tools the proxy lists (to check the call tool exists) */
  proxyToolNames: readonly string[];
  golden: GoldenSet;
  /** call when the golden tool is within the first topK results (default 1) */
  topK?: number;
  /** the proxy's ranking for a query (full detail), or the reason there is none */
  ranking: (queryId: string) => string[] | string;
  /** annotations of upstream tools by tool_id */
  annotations: ReadonlyMap<string, Record<string, unknown> | undefined>;
  /** placeholder -> value substituted in call arguments (e.g. <ALLOWED_DIR>) */
  placeholders: Readonly<Record<string, string>>;
  /** upstream configs for the direct calls (by server name); none = no direct comparison */
  direct: readonly UpstreamConfig[];
  tokenizers: readonly Tokenizer[];
  timeoutMs: number;
  protocol?: ProtocolChoice;
  log?: (line: string) => void;
}

export const RESULT_COST_METHOD =
  'tokens of the compact JSON of the tools/call result object as the MCP client returns it, split into content_text / content_other (non-text block payload) / structured_content / meta / wrapper by byte spans (each token to the span of its first byte; components sum to the total); overhead = through the proxy minus directly on the upstream, same arguments';

// ---------------------------------------------------------------------------------------------

/** Which component a field of a content block is: the text of a text block, other blocks' payload, or envelope. */
function blockFieldLabel(type: unknown, key: string, value: unknown): ResultComponent {
  if (key === 'type' || key === 'annotations' || key === '_meta') return 'wrapper';
  if (type === 'text') return key === 'text' && typeof value === 'string' ? 'content_text' : 'wrapper';
  return 'content_other';
}

/** Compact JSON of a call result, with byte spans labelled by component (contiguous, cover everything). */
export function resultSpans(result: CallResult): { text: string; spans: Span[] } {
  const pieces: Array<{ label: ResultComponent; text: string }> = [];
  const put = (label: ResultComponent, text: string) => {
    const last = pieces[pieces.length - 1];
    if (last && last.label === label) last.text += text;
    else pieces.push({ label, text });
  };
  put('wrapper', '{');
  let first = true;
  for (const [k, v] of Object.entries(result)) {
    if (v === undefined) continue;
    put('wrapper', `${first ? '' : ','}${JSON.stringify(k)}:`);
    first = false;
    if (k === 'structuredContent') put('structured_content', JSON.stringify(v));
    else if (k === '_meta') put('meta', JSON.stringify(v));
    else if (k === 'content' && Array.isArray(v)) {
      put('wrapper', '[');
      v.forEach((block: unknown, i) => {
        if (i > 0) put('wrapper', ',');
        if (!block || typeof block !== 'object' || Array.isArray(block)) {
          put('wrapper', JSON.stringify(block) ?? 'null');
          return;
        }
        const b = block as Record<string, unknown>;
        put('wrapper', '{');
        let bf = true;
        for (const [bk, bv] of Object.entries(b)) {
          if (bv === undefined) continue;
          put('wrapper', `${bf ? '' : ','}${JSON.stringify(bk)}:`);
          bf = false;
          put(blockFieldLabel(b.type, bk, bv), JSON.stringify(bv));
        }
        put('wrapper', '}');
      });
      put('wrapper', ']');
    } else put('wrapper', JSON.stringify(v));
  }
  put('wrapper', '}');
  let text = '';
  let pos = 0;
  const spans: Span[] = [];
  for (const p of pieces) {
    const len = Buffer.byteLength(p.text, 'utf8');
    spans.push({ label: p.label, start: pos, end: pos + len });
    pos += len;
    text += p.text;
  }
  return { text, spans };
}

export function countResult(result: CallResult, tk: Tokenizer): ResultTokens {
  const { text, spans } = resultSpans(result);
  const { total, byLabel } = tk.countSpans(text, spans);
  const components = Object.fromEntries(RESULT_COMPONENTS.map((c) => [c, byLabel[c] ?? 0])) as ResultComponents;
  return { total, components };
}

/** Why calling `toolId` is not allowed (null = safe): read-only annotation or the golden allow-list. */
export function unsafeReason(
  toolId: string,
  annotations: ReadonlyMap<string, Record<string, unknown> | undefined>,
  allow: readonly string[],
): string | null {
  if (allow.includes(toolId)) return null;
  if (!annotations.has(toolId)) return `${toolId} is not listed by the upstreams (annotations unknown) and not in call_allow`;
  if (annotations.get(toolId)?.readOnlyHint === true) return null;
  return `${toolId} is not annotated readOnlyHint: true and not in the golden set's call_allow`;
}

const PLACEHOLDER = /<[A-Z][A-Z_]*>/;
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim().slice(0, 300);
const resultError = (r: CallResult): string =>
  oneLine(
    (r.content ?? [])
      .filter((c) => c.type === 'text')
      .map((c) => String(c.text))
      .join(' ') || 'isError result',
  );

interface PlannedCall {
  id: string;
  toolId: string;
  rank: number;
  /** the arguments sent, placeholders filled */
  args: Record<string, JsonValue>;
  /** the arguments as the golden set writes them, placeholders kept (what call_tokens counts) */
  written: Record<string, JsonValue>;
}

/** The golden calls that will run: the proxy ranked the tool within topK, it is safe to call, every placeholder filled; the rest go to `skipped` with the reason. */
function planCalls(
  input: ResultCallsInput,
  candidates: ResultCallsInput['golden']['queries'],
  topK: number,
  skipped: LiveResultSkip[],
): PlannedCall[] {
  const allow = input.golden.call_allow ?? [];
  const planned: PlannedCall[] = [];
  for (const q of candidates) {
    const call = q.call!;
    const ranking = input.ranking(q.id);
    const skip = (reason: string) => skipped.push({ query_id: q.id, tool_id: call.tool_id, reason });
    if (typeof ranking === 'string') {
      skip(`no ranking from the proxy: ${ranking}`);
      continue;
    }
    const rank = ranking.slice(0, topK).indexOf(call.tool_id) + 1;
    if (rank === 0) {
      skip(
        topK === 1
          ? `the proxy's top-1 is ${ranking[0] ?? 'nothing'}, the golden call is for ${call.tool_id}`
          : `${call.tool_id} is not in the proxy's top ${topK} (${ranking.slice(0, topK).join(', ') || 'no results'})`,
      );
      continue;
    }
    const unsafe = unsafeReason(call.tool_id, input.annotations, allow);
    if (unsafe) {
      skip(`not called: ${unsafe}`);
      continue;
    }
    const args = fillPlaceholders(call.arguments, input.placeholders) as Record<string, JsonValue>;
    const left = PLACEHOLDER.exec(JSON.stringify(args));
    if (left) {
      skip(`argument placeholder ${left[0]} has no value for this target (only the embedded default provides <ALLOWED_DIR>)`);
      continue;
    }
    planned.push({ id: q.id, toolId: call.tool_id, rank, args, written: call.arguments as Record<string, JsonValue> });
  }
  return planned;
}

/** One side of a measured call: the result, or why there is none (a thrown error or a tool error). */
interface CallSide {
  result?: CallResult;
  error?: string;
}

/** Runs one tools/call, turning a throw or an isError result into the side's error text. */
async function callVia(call: () => Promise<CallResult>): Promise<CallSide> {
  let result: CallResult | undefined;
  let error: string | undefined;
  try {
    result = await call();
    if (result.isError) error = `tool error: ${resultError(result)}`;
  } catch (e) {
    error = oneLine((e as Error).message);
  }
  return { result, error };
}

/** The rows of one planned call, one per tokenizer: call tokens (of `written`, the call as the golden set writes it), proxy and direct result tokens, and the overhead. */
function callRows(
  p: PlannedCall,
  written: Record<string, unknown>,
  callTool: string,
  useHint: boolean,
  proxySide: CallSide,
  directSide: CallSide,
  tokenizers: readonly Tokenizer[],
): LiveResultCallRow[] {
  const rows: LiveResultCallRow[] = [];
  for (const tk of tokenizers) {
    const row: LiveResultCallRow = {
      query_id: p.id,
      tool_id: p.toolId,
      tokenizer: tk.name,
      rank: p.rank,
      ok: proxySide.error === undefined,
      call_tokens: tk.count(JSON.stringify(written)),
      call_tool: callTool,
      ...(useHint ? { call_with: true } : {}),
      overhead_tokens: null,
    };
    if (proxySide.error !== undefined) row.error = proxySide.error;
    else row.proxy = countResult(proxySide.result!, tk);
    if (directSide.error !== undefined) row.direct_error = directSide.error;
    else row.direct = countResult(directSide.result!, tk);
    if (row.proxy && row.direct) row.overhead_tokens = row.proxy.total - row.direct.total;
    rows.push(row);
  }
  return rows;
}

export async function measureResultCalls(input: ResultCallsInput): Promise<LiveResultCost> {
  const log = input.log ?? (() => {});
  const candidates = input.golden.queries.filter((q) => q.call);
  const skipped: LiveResultSkip[] = [];
  const rows: LiveResultCallRow[] = [];
  const topK = input.topK ?? 1;
  const nameArg = input.callNameArg ?? 'name';
  const argsArg = input.callArgsArg ?? 'arguments';
  let callWithUsed = 0;
  let missing: string | undefined;
  const out = (): LiveResultCost => ({
    call_tool: input.callTool,
    call_args: { name: nameArg, arguments: argsArg },
    ...(callWithUsed ? { call_with_used: callWithUsed } : {}),
    ...(missing ? { missing_call_tool: missing } : {}),
    top_k: topK,
    candidates: candidates.length,
    rows,
    skipped,
    summary: summarize(rows, input.tokenizers),
    method: RESULT_COST_METHOD,
  });
  if (!input.proxyToolNames.includes(input.callTool)) {
    const listed =
      input.proxyToolNames.length > 12
        ? `${input.proxyToolNames.slice(0, 12).join(', ')}, … (${input.proxyToolNames.length} tools)`
        : input.proxyToolNames.join(', ') || 'no tools';
    missing = `the proxy lists no ${JSON.stringify(input.callTool)} tool (it lists: ${listed}); set --call-tool (and --call-name-arg/--call-args-arg)`;
    log(`live: result cost: no result calls: ${missing}`);
    for (const q of candidates)
      skipped.push({ query_id: q.id, tool_id: q.call!.tool_id, reason: `the proxy lists no ${JSON.stringify(input.callTool)} tool` });
    return out();
  }
  const planned = planCalls(input, candidates, topK, skipped);
  log(`live: result cost: ${planned.length} of ${candidates.length} golden calls (${skipped.length} skipped)`);
  const direct = new Map<string, Promise<McpConnection>>();
  const directConn = (server: string): Promise<McpConnection> | null => {
    const cfg = input.direct.find((u) => u.name === server);
    if (!cfg) return null;
    let c = direct.get(server);
    if (!c) {
      c = connectMcp(targetOf(cfg), {
        timeoutMs: input.timeoutMs,
        protocol: cfg.protocol ?? input.protocol ?? 'legacy',
        clientName: 'mcpgauge-direct',
      });
      c.catch(() => {});
      direct.set(server, c);
    }
    return c;
  };
  try {
    for (const p of planned) {
      const i = p.toolId.indexOf(':');
      const server = p.toolId.slice(0, i);
      const tool = p.toolId.slice(i + 1);
      const callArgs = { [nameArg]: p.toolId, [argsArg]: p.args };
      // the proxy's own hint for this result (mcpproxy: call_tool_read|write|destructive), when it lists that tool
      const hint = input.callWith?.(p.id, p.toolId);
      const useHint = hint !== undefined && hint !== input.callTool && input.proxyToolNames.includes(hint);
      const callTool = useHint ? hint : input.callTool;
      if (useHint) callWithUsed++;
      const proxySide = await callVia(() => input.proxy.callTool(callTool, callArgs, { timeoutMs: input.timeoutMs }));
      const dc = directConn(server);
      const directSide: CallSide = !dc
        ? { error: `no direct connection to upstream ${server} (pass --upstreams FILE for external proxies)` }
        : await callVia(async () => (await dc).callTool(tool, p.args, { timeoutMs: input.timeoutMs }));
      rows.push(...callRows(p, { [nameArg]: p.toolId, [argsArg]: p.written }, callTool, useHint, proxySide, directSide, input.tokenizers));
    }
  } finally {
    for (const c of direct.values()) await c.then((x) => x.close()).catch(() => {});
  }
  return out();
}

function summarize(rows: readonly LiveResultCallRow[], tokenizers: readonly Tokenizer[]): LiveResultSummary[] {
  const out: LiveResultSummary[] = [];
  for (const tk of tokenizers) {
    const ok = rows.filter((r) => r.tokenizer === tk.name && r.ok && r.proxy);
    if (ok.length === 0) continue;
    const totals = ok.map((r) => r.proxy!.total);
    const both = ok.filter((r) => r.direct);
    out.push({
      tokenizer: tk.name,
      n: ok.length,
      mean_call_tokens: mean(ok.map((r) => r.call_tokens)),
      mean_result_tokens: mean(totals),
      p50_result_tokens: percentile(totals, 50),
      max_result_tokens: Math.max(...totals),
      direct_n: both.length,
      mean_direct_result_tokens: both.length ? mean(both.map((r) => r.direct!.total)) : null,
      mean_overhead_tokens: both.length ? mean(both.map((r) => r.overhead_tokens!)) : null,
    });
  }
  return out;
}

/**
 * Per tokenizer and detail level: menu + tasks x (mean discovery response + mean call + mean
 * result), from the measured live numbers (provenance `estimated`: it is a model of a session).
 */
export function taskSessions(
  corpusId: string,
  menus: ReadonlyArray<{ tokenizer: string; proxy_menu_tokens: { value: number } }>,
  responseSummary: ReadonlyArray<{ detail: string; tokenizer: string; mean: number }>,
  cost: LiveResultCost,
): TaskSessionEstimateRow[] {
  const out: TaskSessionEstimateRow[] = [];
  for (const m of menus) {
    const rs = cost.summary.find((s) => s.tokenizer === m.tokenizer);
    if (!rs) continue;
    for (const s of responseSummary.filter((x) => x.tokenizer === m.tokenizer)) {
      for (const row of taskSessionEstimates({
        menuTokens: m.proxy_menu_tokens.value,
        meanDiscoveryResponseTokens: s.mean,
        meanCallTokens: rs.mean_call_tokens,
        meanResultTokens: rs.mean_result_tokens,
      })) {
        out.push({ corpus_id: corpusId, arm: `proxy_${s.detail}`, tokenizer: rs.tokenizer, result_n: rs.n, ...row });
      }
    }
  }
  return out;
}

/**
 * The live stage's result-cost step: golden calls of the queries measured at the full detail
 * level, ranked by the proxy's own responses (their partitions), annotations from the upstream
 * listing (or the corpus when the upstreams were not listed), placeholders and direct upstreams
 * from the target. Undefined when `resultCalls` is false.
 */
export async function resultCostStage(args: {
  opts: LiveOptions;
  conn: McpConnection;
  proxyToolNames: readonly string[];
  golden: GoldenSet;
  detailRuns: readonly DetailRun[];
  partitions: ReadonlyMap<string, ResponsePartition>;
  upstream: UpstreamMenu;
  corpusTools: ReadonlyArray<{ tool_id: string; annotations?: Record<string, unknown> }>;
  target: OpenedTarget;
  tokenizers: readonly Tokenizer[];
  callTimeoutMs: number;
  log?: (line: string) => void;
}): Promise<LiveResultCost | undefined> {
  const { opts } = args;
  if (opts.resultCalls === false) return undefined;
  const full = args.detailRuns.find((d) => d.detail === 'full');
  const annotations = new Map<string, Record<string, unknown> | undefined>();
  if (args.upstream.live) for (const u of args.upstream.tools) annotations.set(`${u.server}:${u.tool.name}`, u.tool.annotations);
  else for (const t of args.corpusTools) annotations.set(t.tool_id, t.annotations);
  return measureResultCalls({
    proxy: args.conn,
    callTool: opts.callTool ?? 'call_tool',
    callNameArg: opts.callNameArg,
    callArgsArg: opts.callArgsArg,
    callWith: (qid, toolId) => args.partitions.get(`full\u0000${qid}`)?.callWith?.[toolId],
    topK: opts.resultTopK,
    proxyToolNames: args.proxyToolNames,
    golden: args.golden,
    ranking: (qid) => {
      const pq = full?.perQuery.find((p) => p.id === qid);
      if (!pq) return 'the full detail level was not measured';
      if (pq.text === undefined) return pq.error ?? 'discovery call failed';
      const p = args.partitions.get(`full\u0000${qid}`);
      if (!p) return 'response not partitioned';
      return p.json ? p.ranking : (p.flag ?? 'response is not JSON');
    },
    annotations,
    placeholders: args.target.placeholders,
    direct: args.target.direct,
    tokenizers: args.tokenizers,
    timeoutMs: args.callTimeoutMs,
    protocol: opts.protocol,
    log: args.log,
  });
}
