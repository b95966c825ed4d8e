/**
 * Live stage, pass-through gateways (a proxy without a discovery tool: it lists the upstream
 * tools directly, possibly renamed or prefixed). Measured as what it is: its tools/list menu
 * against the upstreams' menus, tool by tool (names matched by suffix or a tool map, see
 * pipeline/adapter/names.ts), the prefix overhead, and the latency of a cheap call (tools/list).
 * No golden query is ever sent to one of its tools: an arbitrary tool may have side effects.
 */
import { matchToolName } from '../adapter/names.ts';
import type { McpConnection, WireTool } from '../mcp/client.ts';
import type { LiveLatency, LivePassthrough } from '../report/index.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import type { ToolRecord } from '../types.ts';
import { mean, percentile } from '../util/stats.ts';

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * Per upstream tool: the proxy's name for it and both renderings' tokens (`render` renders a
 * one-tool listing exactly as the menus are rendered). Unmatched names on either side are listed.
 */
export function comparePassthroughMenus(
  proxyTools: readonly ToolRecord[],
  upstreamTools: readonly ToolRecord[],
  tk: Tokenizer,
  render: (tools: ToolRecord[]) => string,
  toolMap: Record<string, string> = {},
): LivePassthrough {
  const names = proxyTools.map((t) => t.tool);
  const byName = new Map(proxyTools.map((t) => [t.tool, t]));
  const used = new Set<string>();
  const per_tool: LivePassthrough['per_tool'] = [];
  let overhead = 0;
  for (const u of upstreamTools) {
    const m = matchToolName(names, u.server, u.tool, toolMap);
    const upstream_tokens = tk.count(render([u]));
    const p = m.name === null ? undefined : byName.get(m.name);
    if (m.name !== null) used.add(m.name);
    const proxy_tokens = p ? tk.count(render([p])) : null;
    if (proxy_tokens !== null) overhead += proxy_tokens - upstream_tokens;
    per_tool.push({ upstream: u.tool_id, proxy_name: m.name, how: m.how, upstream_tokens, proxy_tokens });
  }
  return {
    tokenizer: tk.name,
    matched: per_tool.filter((r) => r.proxy_name !== null).length,
    unmatched_upstream: per_tool.filter((r) => r.proxy_name === null).map((r) => r.upstream),
    extra_proxy: names.filter((n) => !used.has(n)),
    prefix_overhead_tokens: overhead,
    per_tool,
  };
}

/** Latency of a cheap, side-effect-free call (tools/list), `runs` times after `warmup` calls. */
export async function cheapCallLatency(
  conn: McpConnection,
  runs: number,
  warmup: number,
  timeoutMs: number,
): Promise<{ row?: LiveLatency & { method: string }; errors: string[] }> {
  const errors: string[] = [];
  const timed: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const t0 = performance.now();
    try {
      await conn.listAllTools({ timeoutMs });
      if (i >= warmup) timed.push(performance.now() - t0);
    } catch (e) {
      errors.push((e as Error).message.split('\n')[0]);
    }
  }
  if (timed.length === 0) return { errors };
  return {
    errors,
    row: {
      method: 'tools/list',
      detail: 'full',
      n: timed.length,
      warmup,
      runs,
      p50_ms: round3(percentile(timed, 50)),
      p95_ms: round3(percentile(timed, 95)),
      p99_ms: round3(percentile(timed, 99)),
      max_ms: round3(Math.max(...timed)),
      mean_ms: round3(mean(timed)),
    },
  };
}

export type { WireTool };
