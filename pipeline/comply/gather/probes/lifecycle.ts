/** Probes added for the lifecycle, resources, prompts and schema checks (a group file: the core list lives in probes.ts). */
import { build, type Obj } from '../request-builder.ts';
import { META_LOG_LEVEL } from '../../../mcp/protocol.ts';
import { L, M, STDIO, cheap, listOf, pickPrompt, pickTool, req, type Probe, type ProbeCtx } from './kit.ts';

/** a numeric id past 2^31 (still a safe integer): a server that narrows ids to 32 bits answers another id */
export const WIDE_ID = 2 ** 31 + 7;
export const PROGRESS_TOKEN = 'mcpgauge-progress-7f3a';
export const UNKNOWN_NOTIFICATION = 'notifications/mcpgauge/no-such-notification';
export const UNKNOWN_PROMPT = 'mcpgauge_no_such_prompt_7f3a';
export const BAD_LOG_LEVEL = 'mcpgauge-loud';
export const K_LOG_LEVEL = META_LOG_LEVEL;
/** not a probe of the list: comply.ts sends a legacy initialize as the opening message of a fresh stdio process (2026-07-28 runs) */
export const DUAL_ERA_PROBE = 'dual-era';

const declared = (c: ProbeCtx, cap: string): boolean => {
  const caps = c.result('handshake')?.capabilities;
  return typeof caps === 'object' && caps !== null && cap in caps;
};

/** What completion/complete can be asked about: the first prompt argument, else the first template variable. */
export function completionRef(c: ProbeCtx): Obj | null {
  for (const p of listOf(c, 'prompts-list', 'prompts')) {
    const arg = (Array.isArray(p.arguments) ? (p.arguments as Obj[]) : []).find((a) => typeof a.name === 'string');
    if (typeof p.name === 'string' && arg) return { ref: { type: 'ref/prompt', name: p.name }, argument: { name: arg.name, value: '' } };
  }
  for (const t of listOf(c, 'templates-list', 'resourceTemplates')) {
    const v = typeof t.uriTemplate === 'string' ? /\{([A-Za-z0-9_]+)\}/.exec(t.uriTemplate) : null;
    if (v) return { ref: { type: 'ref/resource', uri: t.uriTemplate }, argument: { name: v[1], value: '' } };
  }
  return null;
}

/** subscriptions/listen: the notification types the declared capabilities offer (toolsListChanged when none is offered) */
export function listenRequest(c: ProbeCtx): Obj {
  const caps = (c.result('handshake')?.capabilities ?? {}) as Record<string, { listChanged?: unknown } | undefined>;
  const n: Obj = {};
  if (caps.tools?.listChanged === true) n.toolsListChanged = true;
  if (caps.prompts?.listChanged === true) n.promptsListChanged = true;
  if (caps.resources?.listChanged === true) n.resourcesListChanged = true;
  const uri = listOf(c, 'resources-list', 'resources').find((r) => typeof r.uri === 'string')?.uri;
  if ((caps.resources as { subscribe?: unknown } | undefined)?.subscribe === true && uri) n.resourceSubscriptions = [uri];
  return { notifications: Object.keys(n).length ? n : { toolsListChanged: true } };
}

/** the first listed resource, when the server declares resources.subscribe */
function subscribeUri(c: ProbeCtx): string | undefined {
  const res = (c.result('handshake')?.capabilities as { resources?: { subscribe?: unknown } } | undefined)?.resources;
  const uri = listOf(c, 'resources-list', 'resources').find((r) => typeof r.uri === 'string')?.uri;
  return res?.subscribe === true && typeof uri === 'string' ? uri : undefined;
}

/** the page after `first`, when it named a string cursor */
function nextPage(c: ProbeCtx, first: string, method: string) {
  const cur = c.result(first)?.nextCursor;
  return typeof cur === 'string' ? req(c, method, { cursor: cur }) : null;
}

export const LIFECYCLE_PROBES: readonly Probe[] = [
  { id: 'id-match', stage: 2, build: (c) => cheap(c, {}, WIDE_ID) },
  { id: 'unknown-notification', stage: 2, build: (c) => ({ built: build(c.env, null, UNKNOWN_NOTIFICATION, {}), expect: c.wire === 'http' ? 'reply' : 'none' }) },
  { id: 'resources-list-page2', stage: 3, build: (c) => nextPage(c, 'resources-list', 'resources/list') },
  { id: 'prompts-list-page2', stage: 3, build: (c) => nextPage(c, 'prompts-list', 'prompts/list') },
  // listed for the record: comply.ts sends it on a fresh process (it cannot share the graded one), gather never does
  { id: DUAL_ERA_PROBE, stage: 6, revisions: M, wires: STDIO, build: () => null },
  // a listen stream stays open: sent without waiting (stdio), its acknowledgement is read from the channel
  { id: 'listen', stage: 3, revisions: M, wires: STDIO, build: (c) => ({ ...req(c, 'subscriptions/listen', listenRequest(c)), expect: 'none' }) },
  // 2025-11-25 resource subscriptions (sent only when resources.subscribe is declared): subscribe, then unsubscribe
  { id: 'subscribe', stage: 3, revisions: L, build: (c) => (subscribeUri(c) ? req(c, 'resources/subscribe', { uri: subscribeUri(c) }) : null) },
  { id: 'unsubscribe', stage: 4, revisions: L, build: (c) => (subscribeUri(c) && c.result('subscribe') ? req(c, 'resources/unsubscribe', { uri: subscribeUri(c) }) : null) },
  // 2026-07-28: the last listed prompt when there are several (prompts-get reads the first), where a multi round-trip answer may show up
  { id: 'prompts-get-last', stage: 3, revisions: M, build: (c) => {
    const l = listOf(c, 'prompts-list', 'prompts');
    const p = l.length > 1 ? pickPrompt(l.slice(-1)) : null;
    return p ? req(c, 'prompts/get', { name: p.name, arguments: p.args }) : null;
  } },
  // completions (sent only when declared)
  { id: 'completion', stage: 3, build: (c) => {
    const ref = declared(c, 'completions') ? completionRef(c) : null;
    return ref ? req(c, 'completion/complete', ref) : null;
  } },
  { id: 'completion-unknown', stage: 3, build: (c) => (declared(c, 'completions') ? req(c, 'completion/complete', { ref: { type: 'ref/prompt', name: UNKNOWN_PROMPT }, argument: { name: 'name', value: '' } }) : null) },
  // progress: the harmless call of tools-call, with a progress token
  { id: 'progress', stage: 3, build: (c) => {
    const t = pickTool(listOf(c, 'tools-list', 'tools'));
    return t ? req(c, 'tools/call', { name: t.name, arguments: t.args }, { meta: { progressToken: PROGRESS_TOKEN } }) : null;
  } },
  // logging, legacy: logging/setLevel (sent only when declared)
  { id: 'set-level', stage: 2, revisions: L, build: (c) => (declared(c, 'logging') ? req(c, 'logging/setLevel', { level: 'debug' }) : null) },
  { id: 'set-level-bad', stage: 2, revisions: L, build: (c) => (declared(c, 'logging') ? req(c, 'logging/setLevel', { level: BAD_LOG_LEVEL }) : null) },
  // logging, modern: the per-request level (a tools/call that asks for messages, a discover with a bad level and its twin)
  { id: 'log-call', stage: 3, revisions: M, build: (c) => {
    const t = declared(c, 'logging') ? pickTool(listOf(c, 'tools-list', 'tools')) : null;
    return t ? req(c, 'tools/call', { name: t.name, arguments: t.args }, { meta: { [K_LOG_LEVEL]: 'debug' } }) : null;
  } },
  { id: 'log-level-ok', stage: 2, revisions: M, build: (c) => (declared(c, 'logging') ? cheap(c, { meta: { [K_LOG_LEVEL]: 'error' } }) : null) },
  { id: 'log-level-bad', stage: 2, revisions: M, build: (c) => (declared(c, 'logging') ? cheap(c, { meta: { [K_LOG_LEVEL]: BAD_LOG_LEVEL } }) : null) },
];
