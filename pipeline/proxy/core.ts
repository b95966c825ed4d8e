/**
 * ProxyCore: the upstreams, the catalog and the four tool operations, independent of how the
 * proxy is served (stdio or HTTP). Every operation returns a CallToolResult; failures are tool
 * errors (isError) with a one-line message, never exceptions.
 */
import type { CallResult } from '../mcp/client.ts';
import { discardScratch, type ProxyConfig } from './config.ts';
import { ToolCatalog } from './catalog.ts';
import type { RetrieverOptions } from '../retrieval/index.ts';
import { describeResponse, retrieveResponse, type Detail } from './result-shapes.ts';
import { Upstream, isCallFailure, type CallContext, type UpstreamStatus } from './upstream.ts';
import { everyThirdCall, readSabotage, type SabotageSwitch } from './sabotage.ts';

export type ToolResult = CallResult & { content: Array<{ type: string; text?: string; [k: string]: unknown }> };

export function textResult(value: unknown, isError = false): ToolResult {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const r: ToolResult = { content: [{ type: 'text', text }] };
  if (isError) r.isError = true;
  return r;
}

export class ProxyCore {
  readonly config: ProxyConfig;
  readonly upstreams: Upstream[];
  readonly catalog: ToolCatalog;
  private readonly log: (msg: string) => void;
  private closed = false;
  private readonly sabotage: ReadonlySet<SabotageSwitch>;
  /** tail of the one-at-a-time chain (sabotage `serialize` only) */
  private serial: Promise<unknown> = Promise.resolve();

  constructor(
    config: ProxyConfig,
    log: (msg: string) => void,
    opts: { retriever?: string; retrieverOptions?: RetrieverOptions; sabotage?: ReadonlySet<SabotageSwitch> } = {},
  ) {
    const sabotage = opts.sabotage ?? readSabotage();
    const retrieverId = opts.retriever;
    this.config = config;
    this.log = log;
    this.sabotage = sabotage;
    if (sabotage.size) log(`TEST-ONLY sabotage active: ${[...sabotage].join(', ')}`);
    this.upstreams = config.servers.map(
      (s) =>
        new Upstream(s, {
          protocol: config.upstream_protocol,
          connectTimeoutMs: config.connect_timeout_ms,
          healthIntervalMs: config.health_interval_ms,
          healthTimeoutMs: config.health_timeout_ms,
          restart: config.restart,
          maxListBytes: config.max_upstream_list_bytes,
          log,
          onToolsChanged: () => this.reindex(),
          sabotage,
        }),
    );
    this.catalog = new ToolCatalog(this.upstreams, retrieverId, opts.retrieverOptions, (m) => log(m));
  }

  /** Connect every upstream concurrently; resolves once each has connected or failed its first attempt. */
  async start(): Promise<void> {
    await Promise.all(this.upstreams.map((u) => u.start().catch((e) => this.log(`upstream '${u.name}': ${(e as Error).message}`))));
  }

  private reindex(): void {
    if (this.closed) return;
    try {
      void this.catalog.rebuild();
    } catch (e) {
      this.log(`re-indexing failed: ${(e as Error).message}`);
    }
  }

  toolCount(): number {
    return this.catalog.size;
  }

  upstreamStatus(): UpstreamStatus[] {
    return this.upstreams.map((u) => u.status());
  }

  retrieveTools(args: { query?: unknown; limit?: unknown; detail?: unknown }): ToolResult | Promise<ToolResult> {
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (!query) return textResult("retrieve_tools: 'query' must be a non-empty string describing the task", true);
    let limit = this.config.tools_limit;
    if (args.limit !== undefined) {
      if (typeof args.limit !== 'number' || !Number.isFinite(args.limit) || args.limit < 1) {
        return textResult(`retrieve_tools: 'limit' must be a number >= 1, got ${JSON.stringify(args.limit)}`, true);
      }
      limit = Math.min(Math.floor(args.limit), this.config.max_tools_limit);
    }
    const detail = (args.detail ?? 'full') as Detail;
    if (detail !== 'full' && detail !== 'compact') {
      return textResult(`retrieve_tools: 'detail' must be "full" or "compact", got ${JSON.stringify(args.detail)}`, true);
    }
    // a 2026-07-28 upstream list past its ttlMs is re-listed before it is searched
    if (this.upstreams.some((u) => u.expired)) return this.revalidated().then(() => this.search(query, limit, detail));
    return this.search(query, limit, detail);
  }

  private search(query: string, limit: number, detail: Detail): ToolResult | Promise<ToolResult> {
    const hits = this.catalog.search(query, limit);
    if (!(hits instanceof Promise)) return textResult(retrieveResponse(query, hits, detail));
    return hits.then(
      (h) => textResult(retrieveResponse(query, h, detail)),
      (e: unknown) => textResult(`retrieve_tools: search failed: ${(e as Error).message}`, true),
    );
  }

  describeTool(args: { name?: unknown }): ToolResult | Promise<ToolResult> {
    if (this.upstreams.some((u) => u.expired)) return this.revalidated().then(() => this.describeNow(args));
    return this.describeNow(args);
  }

  /** every upstream whose list is past its ttlMs re-listed (and the index rebuilt) */
  private async revalidated(): Promise<void> {
    // a changed list re-indexes through onToolsChanged (synchronously for the lexical retrievers)
    await Promise.all(this.upstreams.map((u) => u.revalidate()));
  }

  private describeNow(args: { name?: unknown }): ToolResult {
    const name = typeof args.name === 'string' ? args.name.trim() : '';
    const entry = this.catalog.get(name);
    if (!entry) return textResult(this.unknownToolMessage('describe_tool', name), true);
    return textResult(describeResponse(entry));
  }

  /**
   * Run an upstream tool. `ctx.meta` (the caller's `_meta`) is forwarded to the upstream and the
   * upstream's result `_meta` comes back; `ctx.signal` (the caller's cancellation) aborts the
   * upstream request, which sends notifications/cancelled upstream.
   */
  async callTool(args: { name?: unknown; arguments?: unknown }, ctx: CallContext = {}): Promise<CallResult> {
    if (this.sabotage.has('serialize')) {
      const run = this.serial.then(() => this.callToolNow(args, ctx));
      this.serial = run.catch(() => {});
      return run;
    }
    return this.callToolNow(args, ctx);
  }

  private async callToolNow(args: { name?: unknown; arguments?: unknown }, ctx: CallContext): Promise<CallResult> {
    const name = typeof args.name === 'string' ? args.name.trim() : '';
    const i = name.indexOf(':');
    if (i <= 0 || i === name.length - 1) {
      return textResult(
        `call_tool: invalid tool name ${JSON.stringify(name)} (expected "server:tool" as returned by retrieve_tools)`,
        true,
      );
    }
    const server = name.slice(0, i);
    const tool = name.slice(i + 1);
    const upstream = this.upstreams.find((u) => u.name === server);
    if (!upstream) return textResult(this.unknownToolMessage('call_tool', name), true);
    const a = args.arguments ?? {};
    if (typeof a !== 'object' || a === null || Array.isArray(a)) {
      return textResult(`call_tool: 'arguments' must be a JSON object, got ${JSON.stringify(a)}`, true);
    }
    // test-only: drop-meta always, flaky-meta on every third call that carries a caller _meta
    const dropMeta = this.sabotage.has('drop-meta') || (this.sabotage.has('flaky-meta') && carriesCallerMeta(ctx.meta) && everyThirdCall());
    try {
      const res = await upstream.callTool(
        tool,
        a as Record<string, unknown>,
        this.config.call_timeout_ms,
        dropMeta ? { ...ctx, meta: undefined } : ctx,
      );
      return forwardResult(res, !dropMeta);
    } catch (e) {
      const msg = isCallFailure(e) ? (e as Error).message : `upstream '${server}' failed: ${(e as Error).message}`;
      return textResult(`call_tool ${name}: ${msg}`, true);
    }
  }

  async upstreamServers(args: { action?: unknown; name?: unknown }): Promise<ToolResult> {
    const action = args.action ?? 'list';
    if (action === 'list') return textResult({ servers: this.upstreamStatus(), total_tools: this.toolCount() });
    if (action !== 'restart')
      return textResult(`upstream_servers: 'action' must be "list" or "restart", got ${JSON.stringify(action)}`, true);
    const name = typeof args.name === 'string' ? args.name : '';
    const u = this.upstreams.find((x) => x.name === name);
    if (!u) {
      return textResult(
        `upstream_servers: no upstream named ${JSON.stringify(name)} (upstreams: ${this.upstreams.map((x) => x.name).join(', ')})`,
        true,
      );
    }
    const status = await u.restart('restart requested through upstream_servers');
    return textResult({ restarted: name, server: status }, !status.connected);
  }

  private unknownToolMessage(op: string, name: string): string {
    const server = name.includes(':') ? name.slice(0, name.indexOf(':')) : '';
    const known = this.upstreams.map((u) => u.name);
    const hint = server && !known.includes(server) ? ` (no upstream named '${server}'; upstreams: ${known.join(', ')})` : '';
    return `${op}: unknown tool ${JSON.stringify(name)}${hint}; use retrieve_tools to find tool names (format server:tool)`;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.upstreams.map((u) => u.close().catch(() => {})));
    discardScratch(this.config);
  }
}

/** Reserved `_meta` keys of the protocol envelope (the upstream's own, never forwarded). */
const RESERVED_META = /^io\.modelcontextprotocol\//;

/** a caller's `_meta` with a key of its own (not progressToken, not a reserved protocol key) */
function carriesCallerMeta(meta: unknown): boolean {
  return typeof meta === 'object' && meta !== null && Object.keys(meta).some((k) => k !== 'progressToken' && !RESERVED_META.test(k));
}

/**
 * Pass an upstream result through: content, structuredContent (when an object), isError and the
 * result's `_meta` (minus the upstream's reserved protocol keys) kept, nothing else.
 */
function forwardResult(res: CallResult, keepMeta: boolean): CallResult {
  const out: CallResult = { content: Array.isArray(res.content) ? res.content : [] };
  // structuredContent must be an object in 2025-era results; a modern upstream may send any JSON value
  const sc = res.structuredContent;
  if (sc !== undefined && sc !== null && typeof sc === 'object' && !Array.isArray(sc)) out.structuredContent = sc;
  if (res.isError) out.isError = true;
  if (keepMeta && res._meta && typeof res._meta === 'object' && !Array.isArray(res._meta)) {
    const meta = Object.fromEntries(Object.entries(res._meta).filter(([k]) => !RESERVED_META.test(k)));
    if (Object.keys(meta).length) out._meta = meta;
  }
  return out;
}
