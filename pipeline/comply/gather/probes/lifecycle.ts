/** Probes of the lifecycle checks: the handshake, ping, ids, _meta, versions, the dual-era opening, listen, completions, progress, logging. */
import { K_CAPS, K_INFO, K_VERSION, build, initializeParams, type BuildOptions, type Obj } from '../request-builder.ts';
import { LEGACY, MODERN } from '../../types.ts';
import { HTTP, L, M, STDIO, cheap, listOf, pickTool, req, type Probe, type ProbeCtx } from './kit.ts';
import { META_LOG_LEVEL } from '../../../mcp/protocol.ts';

/** a string request id (ids may be strings or numbers) */
export const STRING_ID = 'mcpgauge-string-id';
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

export const LIFECYCLE_PROBES: readonly Probe[] = [
  // 0: the opening request; 1: the legacy initialized notification
  {
    id: 'handshake',
    stage: 0,
    build: (c) => (c.rev === MODERN ? req(c, 'server/discover') : req(c, 'initialize', initializeParams(LEGACY))),
  },
  { id: 'initialized', stage: 1, revisions: L, build: (c) => ({ built: build(c.env, null, 'notifications/initialized'), expect: 'none' }) },
  { id: 'ping', stage: 2, build: (c) => req(c, 'ping') },
  { id: 'string-id', stage: 2, build: (c) => cheap(c, {}, STRING_ID) },
  // the conformant twin: the cheap request the negative probes of every category are compared with
  { id: 'twin', stage: 2, build: (c) => cheap(c) },
  { id: 'meta-missing', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: ['*'] }) },
  { id: 'meta-no-version', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: [K_VERSION] }) },
  { id: 'meta-no-caps', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: [K_CAPS] }) },
  { id: 'meta-no-info', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: [K_INFO] }) },
  {
    id: 'meta-vendor',
    stage: 2,
    build: (c) => {
      const opts: BuildOptions = { meta: { 'com.example.mcpgauge/probe': 'x' } };
      // legacy: tools/list when tools are declared (ping has its own check), with the vendor key
      if (c.rev === LEGACY && c.result('handshake')?.capabilities && 'tools' in (c.result('handshake')!.capabilities as Obj)) {
        return req(c, 'tools/list', {}, opts);
      }
      return cheap(c, opts);
    },
  },
  {
    id: 'version-unsupported',
    stage: 2,
    revisions: M,
    build: (c) => req(c, 'server/discover', {}, { meta: { [K_VERSION]: '1999-01-01' }, headers: { 'MCP-Protocol-Version': '1999-01-01' } }),
  },
  {
    id: 'init-future',
    stage: 2,
    revisions: L,
    wires: HTTP,
    build: (c) =>
      req(c, 'initialize', initializeParams('2099-01-01'), { headers: { 'MCP-Protocol-Version': null, 'Mcp-Session-Id': null } }),
  },
  { id: 'id-match', stage: 2, build: (c) => cheap(c, {}, WIDE_ID) },
  {
    id: 'unknown-notification',
    stage: 2,
    build: (c) => ({ built: build(c.env, null, UNKNOWN_NOTIFICATION, {}), expect: c.wire === 'http' ? 'reply' : 'none' }),
  },
  // listed for the record: comply.ts sends it on a fresh process (it cannot share the graded one), gather never does
  { id: DUAL_ERA_PROBE, stage: 6, revisions: M, wires: STDIO, build: () => null },
  // a listen stream stays open: sent without waiting (stdio), its acknowledgement is read from the channel
  {
    id: 'listen',
    stage: 3,
    revisions: M,
    wires: STDIO,
    build: (c) => ({ ...req(c, 'subscriptions/listen', listenRequest(c)), expect: 'none' }),
  },
  // completions (sent only when declared)
  {
    id: 'completion',
    stage: 3,
    build: (c) => {
      const ref = declared(c, 'completions') ? completionRef(c) : null;
      return ref ? req(c, 'completion/complete', ref) : null;
    },
  },
  {
    id: 'completion-unknown',
    stage: 3,
    build: (c) =>
      declared(c, 'completions')
        ? req(c, 'completion/complete', { ref: { type: 'ref/prompt', name: UNKNOWN_PROMPT }, argument: { name: 'name', value: '' } })
        : null,
  },
  // progress: the harmless call of tools-call, with a progress token
  {
    id: 'progress',
    stage: 3,
    build: (c) => {
      const t = pickTool(listOf(c, 'tools-list', 'tools'));
      return t ? req(c, 'tools/call', { name: t.name, arguments: t.args }, { meta: { progressToken: PROGRESS_TOKEN } }) : null;
    },
  },
  // logging, legacy: logging/setLevel (sent only when declared)
  {
    id: 'set-level',
    stage: 2,
    revisions: L,
    build: (c) => (declared(c, 'logging') ? req(c, 'logging/setLevel', { level: 'debug' }) : null),
  },
  {
    id: 'set-level-bad',
    stage: 2,
    revisions: L,
    build: (c) => (declared(c, 'logging') ? req(c, 'logging/setLevel', { level: BAD_LOG_LEVEL }) : null),
  },
  // logging, modern: the per-request level (a tools/call that asks for messages, a discover with a bad level and its twin)
  {
    id: 'log-call',
    stage: 3,
    revisions: M,
    build: (c) => {
      const t = declared(c, 'logging') ? pickTool(listOf(c, 'tools-list', 'tools')) : null;
      return t ? req(c, 'tools/call', { name: t.name, arguments: t.args }, { meta: { [K_LOG_LEVEL]: 'debug' } }) : null;
    },
  },
  {
    id: 'log-level-ok',
    stage: 2,
    revisions: M,
    build: (c) => (declared(c, 'logging') ? cheap(c, { meta: { [K_LOG_LEVEL]: 'error' } }) : null),
  },
  {
    id: 'log-level-bad',
    stage: 2,
    revisions: M,
    build: (c) => (declared(c, 'logging') ? cheap(c, { meta: { [K_LOG_LEVEL]: BAD_LOG_LEVEL } }) : null),
  },
];
