/**
 * One MCP session with a proxy under test, whatever its style: the interface the gate's steps
 * (and the live stage) use. `call("server:tool", args, {meta, signal})` runs an upstream tool
 * through the proxy: via the call tool (discovery style) or directly under the name the gateway
 * lists for it (pass-through style).
 */
import {
  connectMcp,
  resultText,
  type CallResult,
  type McpConnection,
  type McpTarget,
  type ProtocolChoice,
  type WireTool,
} from '../mcp/client.ts';
import { discoveryRanking } from './discovery-response.ts';
import { UserError } from '../types.ts';
import { matchToolName, type NameMatch } from './names.ts';
import { ADAPTER_DEFAULTS, type AdapterOptions, type ProxyStyle } from './options.ts';

export interface CallOptions {
  meta?: Record<string, unknown>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface DiscoverResult {
  /** exact text of the result (text blocks concatenated) */
  text: string;
  /** tool names in response order (`server:tool` when an entry names its server separately) */
  names: string[];
  isError: boolean;
  ms: number;
}

export interface ProxySession {
  readonly conn: McpConnection;
  readonly style: ProxyStyle;
  /** why this style (detected or forced) */
  readonly styleReason: string;
  /** tools/list of the proxy when the session opened */
  readonly tools: WireTool[];
  listTools(timeoutMs?: number): Promise<WireTool[]>;
  /** discovery style only: one search */
  discover(
    query: string,
    o?: { limit?: number; detail?: 'full' | 'compact'; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<DiscoverResult>;
  /** the proxy's name for upstream tool `server:tool` */
  resolve(upstreamTool: string, o?: { timeoutMs?: number }): Promise<NameMatch>;
  /** run upstream tool `server:tool` through the proxy */
  call(upstreamTool: string, args: Record<string, unknown>, o?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export interface SessionOptions {
  adapter?: AdapterOptions;
  protocol?: ProtocolChoice;
  timeoutMs?: number;
  clientName?: string;
}

/** Decide the style from the proxy's tools/list (or check a forced one). */
export function detectStyle(tools: readonly WireTool[], o: AdapterOptions): { style: ProxyStyle; reason: string } {
  const names = new Set(tools.map((t) => t.name));
  const hasSearch = names.has(o.discoveryTool);
  const hasCall = names.has(o.callTool);
  if (o.style === 'discovery') {
    if (!hasSearch || !hasCall) {
      const missing = [!hasSearch ? o.discoveryTool : '', !hasCall ? o.callTool : ''].filter(Boolean).join(' and ');
      throw new UserError(
        `--style discovery: the proxy does not list ${missing} (it lists ${[...names].slice(0, 12).join(', ')}${names.size > 12 ? ', ...' : ''})`,
      );
    }
    return { style: 'discovery', reason: 'set by --style' };
  }
  if (o.style === 'passthrough') return { style: 'passthrough', reason: 'set by --style' };
  if (hasSearch && hasCall) return { style: 'discovery', reason: `tools/list has ${o.discoveryTool} and ${o.callTool}` };
  return {
    style: 'passthrough',
    reason: `tools/list has no ${hasSearch ? o.callTool : o.discoveryTool}: upstream tools are listed directly (${tools.length} tools)`,
  };
}

function split(upstreamTool: string): { server: string; tool: string } {
  const i = upstreamTool.indexOf(':');
  if (i <= 0 || i === upstreamTool.length - 1) throw new Error(`upstream tool must be "server:tool", got ${JSON.stringify(upstreamTool)}`);
  return { server: upstreamTool.slice(0, i), tool: upstreamTool.slice(i + 1) };
}

export async function openProxySession(target: McpTarget, so: SessionOptions = {}): Promise<ProxySession> {
  const o = so.adapter ?? ADAPTER_DEFAULTS;
  const timeoutMs = so.timeoutMs ?? 30_000;
  const conn = await connectMcp(target, { protocol: so.protocol ?? 'legacy', timeoutMs, clientName: so.clientName ?? 'mcpgauge-adapter' });
  let tools: WireTool[];
  let detected: { style: ProxyStyle; reason: string };
  try {
    tools = await conn.listAllTools({ timeoutMs });
    detected = detectStyle(tools, o);
  } catch (e) {
    await conn.close();
    throw e;
  }
  const cache = new Map<string, NameMatch>();
  const { style, reason } = detected;

  const session: ProxySession = {
    conn,
    style,
    styleReason: reason,
    tools,
    listTools: (t) => conn.listAllTools({ timeoutMs: t ?? timeoutMs }),
    async discover(query, d = {}) {
      if (style !== 'discovery') throw new Error('discover: a pass-through proxy has no discovery tool');
      const args: Record<string, unknown> = { [o.argNames.query]: query };
      if (d.limit !== undefined && o.argNames.limit) args[o.argNames.limit] = d.limit;
      if (d.detail !== undefined && o.argNames.detail) args[o.argNames.detail] = d.detail;
      const t0 = performance.now();
      const res = await conn.callTool(o.discoveryTool, args, { timeoutMs: d.timeoutMs ?? timeoutMs, signal: d.signal });
      const ms = performance.now() - t0;
      const text = resultText(res);
      return { text, names: res.isError ? [] : discoveryRanking(text), isError: res.isError === true, ms };
    },
    async resolve(upstreamTool, r = {}) {
      const hit = cache.get(upstreamTool);
      if (hit !== undefined) return { name: hit.name, how: `${hit.how}, cached` };
      const { server, tool } = split(upstreamTool);
      let m: NameMatch;
      if (style === 'discovery') {
        const found = await session.discover(`${tool} ${server}`, { limit: 20, timeoutMs: r.timeoutMs });
        if (found.isError) return { name: null, how: `${o.discoveryTool} failed: ${found.text.slice(0, 200)}` };
        m = matchToolName(found.names, server, tool, o.toolMap);
      } else {
        m = matchToolName(
          tools.map((t) => t.name),
          server,
          tool,
          o.toolMap,
        );
        if (m.name === null) {
          tools = await conn.listAllTools({ timeoutMs: r.timeoutMs ?? timeoutMs });
          m = matchToolName(
            tools.map((t) => t.name),
            server,
            tool,
            o.toolMap,
          );
        }
      }
      if (m.name !== null) cache.set(upstreamTool, m);
      return m;
    },
    async call(upstreamTool, args, c = {}) {
      const m = await session.resolve(upstreamTool, { timeoutMs: c.timeoutMs });
      if (m.name === null) throw new Error(`the proxy offers no name for ${upstreamTool} (${m.how})`);
      const opts = { timeoutMs: c.timeoutMs ?? timeoutMs, signal: c.signal, meta: c.meta };
      if (style === 'passthrough') return conn.callTool(m.name, args, opts);
      return conn.callTool(o.callTool, { [o.callNameArg]: m.name, [o.callArgsArg]: args }, opts);
    },
    close: () => conn.close(),
  };
  return session;
}
