/**
 * Stages 4 and 5 of the live stage: the style (discovery or pass-through), how discovery calls
 * are made (which details, which arguments), the full menu to compare with, and the call itself.
 */
import { describeTarget, type McpConnection, type WireTool } from '../mcp/client.ts';
import { UserError, type Corpus, type ToolRecord } from '../types.ts';
import { toolRecordOf } from '../mcp/tool-record.ts';
import type { Detail, LiveError } from '../report/index.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS, listUpstreams, type OpenedTarget, type UpstreamMenu } from './proxy-under-test.ts';
import { callOnce, oneLine, type DiscoveryCall } from './calls.ts';
import { schemaMissing } from './headline.ts';
import type { LiveSettings } from './settings.ts';
import type { LiveOptions } from './types.ts';

/**
 * Discovery proxy or pass-through gateway. auto: discovery when tools/list has the discovery tool
 * (measuring discovery needs only that tool; the adapter's call tool is not required here).
 */
export function liveStyle(proxyWire: WireTool[], s: LiveSettings): { style: 'discovery' | 'passthrough'; reason: string } {
  if (s.style !== 'auto') return { style: s.style, reason: `set by ${s.styleSource}` };
  return proxyWire.some((t) => t.name === s.discoveryTool)
    ? { style: 'discovery', reason: `tools/list has ${s.discoveryTool}` }
    : {
        style: 'passthrough',
        reason: `tools/list has no ${s.discoveryTool}: the upstream tools are listed directly (${proxyWire.length} tools)`,
      };
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
  const declared = (schemaMissing(dtool.inputSchema) ? {} : ((dtool.inputSchema as Record<string, unknown>).properties ?? {})) as Record<
    string,
    unknown
  >;
  const details = s.wantDetails.filter((d) => d === 'full' || (argNames.detail !== null && argNames.detail in declared));
  if (s.wantDetails.includes('compact') && !details.includes('compact')) {
    errors.push({
      where: 'menu',
      message: `compact detail not measured: ${discoveryTool} declares no ${JSON.stringify(argNames.detail)} argument`,
    });
  }
  const sendDetail = argNames.detail !== null && argNames.detail in declared;
  // a limit goes out when the tool declares it (or declares nothing at all): strict proxies reject unknown arguments
  const sendLimit = argNames.limit !== null && (argNames.limit in declared || Object.keys(declared).length === 0);
  if (argNames.limit !== null && !sendLimit) {
    errors.push({
      where: 'menu',
      message: `no limit sent: ${discoveryTool} declares no ${JSON.stringify(argNames.limit)} argument (the proxy's default applies)`,
    });
  }
  if (argNames.query && Object.keys(declared).length > 0 && !(argNames.query in declared)) {
    errors.push({
      where: 'menu',
      message: `${discoveryTool} declares no ${JSON.stringify(argNames.query)} argument (declared: ${Object.keys(declared).join(', ')}); set --query-arg`,
    });
  }
  return { details, sendDetail, sendLimit, proxyTools: proxyWire.map((t) => toolRecordOf('proxy', t)) };
}

/** Stage 5: the full menu: listed from the upstreams, known from the embedded target, or the corpus file (labelled). */
export async function upstreamMenu(
  target: OpenedTarget,
  corpus: Corpus,
  s: LiveSettings,
  opts: LiveOptions,
  log: (m: string) => void,
): Promise<UpstreamMenu> {
  if (target.upstreamMenu) return target.upstreamMenu;
  if (target.upstreams.length > 0) {
    log(`live: listing ${target.upstreams.length} upstreams from ${opts.upstreamsFile}`);
    const tools = await listUpstreams(target.upstreams, {
      timeoutMs: opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      protocol: opts.protocol,
    }).catch((e: Error) => {
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
export function discoveryCall(conn: McpConnection, s: LiveSettings, plan: CallPlan, turns?: LiveOptions['turns']): DiscoveryCall {
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
