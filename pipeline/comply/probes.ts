/**
 * Probes (the gathering half): each one is a request built from the canonical envelope, run in
 * a stage (later stages may read earlier answers). Probes never judge; checks read their
 * exchanges. The list is data; gather.ts runs it.
 */
import { build, initializeParams, type Built, type BuildOptions, type EnvelopeState, type Obj } from './envelope.ts';
import { LEGACY, MODERN, type Exchange, type Revision, type WireKind } from './types.ts';

export interface ProbeCtx {
  rev: Revision;
  wire: WireKind;
  env: EnvelopeState;
  nextId(): number;
  ex(probe: string): Exchange | undefined;
  result(probe: string): Obj | undefined;
}

export interface ProbeOut {
  built?: Built;
  /** raw text instead of a JSON message (headers still from `built` on HTTP) */
  raw?: string;
  httpMethod?: string;
  expect?: 'reply' | 'none' | 'idless';
  split?: boolean;
  timeoutMs?: number;
  headersOnly?: boolean;
  /** raw bytes whose JSON-RPC id is still readable: the answer is matched on it */
  matchId?: string | number;
}

export interface Probe {
  id: string;
  /** 0 handshake, 1 post-handshake, 2 independent, 3 needs lists, 4 raw/serial, 5 invasive, 6 liveness */
  stage: number;
  revisions?: readonly Revision[];
  wires?: readonly WireKind[];
  build(c: ProbeCtx): ProbeOut | null;
}

const req = (c: ProbeCtx, method: string, params: Obj = {}, opts: BuildOptions = {}, id: string | number = c.nextId()): ProbeOut => ({
  built: build(c.env, id, method, params, opts),
});
/** The cheapest conformant request of the era: discover (modern) or ping (legacy). */
const cheap = (c: ProbeCtx, opts: BuildOptions = {}, id: string | number = c.nextId()): ProbeOut =>
  c.rev === MODERN ? req(c, 'server/discover', {}, opts, id) : req(c, 'ping', {}, opts, id);

type Tool = { name?: unknown; inputSchema?: { required?: unknown; properties?: Record<string, { type?: unknown }> }; annotations?: Obj };

function listOf(c: ProbeCtx, probe: string, key: string): Obj[] {
  const r = c.result(probe)?.[key];
  return Array.isArray(r) ? (r.filter((x) => x && typeof x === 'object') as Obj[]) : [];
}

/** The tool a harmless call can go to: no required arguments, read-only first. */
export function pickTool(tools: Obj[]): { name: string; args: Obj } | null {
  const named = (tools as Tool[]).filter((t) => typeof t.name === 'string');
  const noReq = named.filter((t) => !Array.isArray(t.inputSchema?.required) || (t.inputSchema!.required as unknown[]).length === 0);
  const ro = (l: Tool[]) => [...l.filter((t) => t.annotations?.readOnlyHint === true), ...l.filter((t) => t.annotations?.readOnlyHint !== true)];
  const t = ro(noReq)[0];
  if (t) return { name: t.name as string, args: {} };
  for (const cand of ro(named)) {
    const reqd = cand.inputSchema!.required as string[];
    const props = cand.inputSchema?.properties ?? {};
    if (reqd.every((k) => props[k]?.type === 'string')) return { name: cand.name as string, args: Object.fromEntries(reqd.map((k) => [k, 'mcpgauge'])) };
  }
  return null;
}

function pickPrompt(prompts: Obj[]): { name: string; args: Obj } | null {
  for (const p of prompts) {
    if (typeof p.name !== 'string') continue;
    const args = Array.isArray(p.arguments) ? (p.arguments as Obj[]) : [];
    return { name: p.name, args: Object.fromEntries(args.filter((a) => a.required === true && typeof a.name === 'string').map((a) => [a.name as string, 'mcpgauge'])) };
  }
  return null;
}

const HTTP: readonly WireKind[] = ['http'];
const STDIO: readonly WireKind[] = ['stdio'];
const M: readonly Revision[] = [MODERN];
const L: readonly Revision[] = [LEGACY];
export const GIANT_BYTES = 2 * 1024 * 1024;
export const OVERSIZED_BYTES = 1024 * 1024;
export const STRING_ID = 'mcpgauge-string-id';
export const MISSING_URI = 'mcpgauge://no-such-resource/7f3a';
export const UNKNOWN_TOOL = 'mcpgauge_no_such_tool_7f3a';
export const EVIL_ORIGIN = 'https://evil-rebinding.example';

export const PROBES: readonly Probe[] = [
  // 0: handshake
  {
    id: 'handshake',
    stage: 0,
    build: (c) => (c.rev === MODERN ? req(c, 'server/discover') : req(c, 'initialize', initializeParams(LEGACY))),
  },
  // 1: legacy initialized notification
  { id: 'initialized', stage: 1, revisions: L, build: (c) => ({ built: build(c.env, null, 'notifications/initialized'), expect: 'none' }) },
  // 2: independent requests
  { id: 'tools-list', stage: 2, build: (c) => req(c, 'tools/list') },
  { id: 'tools-list-2', stage: 2, build: (c) => req(c, 'tools/list') },
  { id: 'tools-list-3', stage: 2, build: (c) => req(c, 'tools/list') },
  { id: 'resources-list', stage: 2, build: (c) => req(c, 'resources/list') },
  { id: 'templates-list', stage: 2, build: (c) => req(c, 'resources/templates/list') },
  { id: 'prompts-list', stage: 2, build: (c) => req(c, 'prompts/list') },
  { id: 'unknown-method', stage: 2, build: (c) => req(c, 'mcpgauge/no-such-method') },
  { id: 'ping', stage: 2, build: (c) => req(c, 'ping') },
  { id: 'string-id', stage: 2, build: (c) => cheap(c, {}, STRING_ID) },
  { id: 'twin', stage: 2, build: (c) => cheap(c) },
  { id: 'meta-missing', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: ['*'] }) },
  { id: 'meta-no-version', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: ['io.modelcontextprotocol/protocolVersion'] }) },
  { id: 'meta-no-caps', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: ['io.modelcontextprotocol/clientCapabilities'] }) },
  { id: 'meta-no-info', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: ['io.modelcontextprotocol/clientInfo'] }) },
  { id: 'meta-vendor', stage: 2, build: (c) => {
    const opts: BuildOptions = { meta: { 'com.example.mcpgauge/probe': 'x' } };
    // legacy: tools/list when tools are declared (ping has its own check), with the vendor key
    if (c.rev === LEGACY && c.result('handshake')?.capabilities && 'tools' in (c.result('handshake')!.capabilities as Obj)) {
      return req(c, 'tools/list', {}, opts);
    }
    return cheap(c, opts);
  } },
  {
    id: 'version-unsupported',
    stage: 2,
    revisions: M,
    build: (c) => req(c, 'server/discover', {}, { meta: { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' }, headers: { 'MCP-Protocol-Version': '1999-01-01' } }),
  },
  { id: 'init-future', stage: 2, revisions: L, wires: HTTP, build: (c) => req(c, 'initialize', initializeParams('2099-01-01'), { headers: { 'MCP-Protocol-Version': null, 'Mcp-Session-Id': null } }) },
  {
    id: 'batch',
    stage: 4,
    build: (c) => {
      const a = cheap(c).built!;
      const b = cheap(c).built!;
      return { built: a, raw: JSON.stringify([a.message, b.message]), expect: 'idless' };
    },
  },
  { id: 'notification', stage: 2, build: (c) => ({ built: build(c.env, null, 'notifications/cancelled', { requestId: 'mcpgauge-never-sent', reason: 'probe' }), expect: c.wire === 'http' ? 'reply' : 'none' }) },
  // HTTP-only transport probes
  { id: 'get', stage: 2, wires: HTTP, build: (c) => ({ built: { message: {}, headers: { ...cheap(c).built!.headers, Accept: 'text/event-stream' } }, httpMethod: 'GET', headersOnly: true }) },
  { id: 'delete', stage: 2, revisions: M, wires: HTTP, build: (c) => ({ ...cheap(c), httpMethod: 'DELETE' }) },
  { id: 'content-type-text', stage: 2, wires: HTTP, build: (c) => cheap(c, { headers: { 'Content-Type': 'text/plain' } }) },
  { id: 'origin-evil', stage: 2, wires: HTTP, build: (c) => cheap(c, { headers: { Origin: EVIL_ORIGIN } }) },
  { id: 'cors-preflight', stage: 2, wires: HTTP, build: (c) => ({ ...cheap(c, { headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST' } }), httpMethod: 'OPTIONS' }) },
  { id: 'session-fabricated', stage: 2, revisions: M, wires: HTTP, build: (c) => cheap(c, { headers: { 'Mcp-Session-Id': 'mcpgauge-fabricated-session' } }) },
  { id: 'header-no-version', stage: 2, revisions: M, wires: HTTP, build: (c) => cheap(c, { headers: { 'MCP-Protocol-Version': null } }) },
  { id: 'header-version-mismatch', stage: 2, revisions: M, wires: HTTP, build: (c) => cheap(c, { headers: { 'MCP-Protocol-Version': '1999-01-01' } }) },
  { id: 'header-no-method', stage: 2, revisions: M, wires: HTTP, build: (c) => cheap(c, { headers: { 'Mcp-Method': null } }) },
  { id: 'header-method-mismatch', stage: 2, revisions: M, wires: HTTP, build: (c) => cheap(c, { headers: { 'Mcp-Method': 'tools/list' } }) },
  { id: 'header-lowercase', stage: 2, revisions: M, wires: HTTP, build: (c) => {
    const b = cheap(c).built!;
    return { built: { message: b.message, headers: Object.fromEntries(Object.entries(b.headers).map(([k, v]) => [k.toLowerCase(), v])) } };
  } },
  // 3: requests built from the lists
  { id: 'tools-call', stage: 3, build: (c) => {
    const t = pickTool(listOf(c, 'tools-list', 'tools'));
    return t ? req(c, 'tools/call', { name: t.name, arguments: t.args }) : null;
  } },
  { id: 'tools-call-structured', stage: 3, build: (c) => {
    const withSchema = listOf(c, 'tools-list', 'tools').filter((t) => t.outputSchema && typeof t.outputSchema === 'object');
    const t = pickTool(withSchema);
    return t ? req(c, 'tools/call', { name: t.name, arguments: t.args }) : null;
  } },
  { id: 'tools-call-unknown', stage: 3, build: (c) => req(c, 'tools/call', { name: UNKNOWN_TOOL, arguments: {} }) },
  { id: 'tools-call-no-name', stage: 3, build: (c) => req(c, 'tools/call', {}) },
  { id: 'tools-list-bad-cursor', stage: 3, build: (c) => req(c, 'tools/list', { cursor: 'mcpgauge-invalid-cursor-7f3a' }) },
  { id: 'tools-list-page2', stage: 3, build: (c) => {
    const cur = c.result('tools-list')?.nextCursor;
    return typeof cur === 'string' ? req(c, 'tools/list', { cursor: cur }) : null;
  } },
  { id: 'header-name-mismatch', stage: 3, revisions: M, wires: HTTP, build: (c) => {
    const t = pickTool(listOf(c, 'tools-list', 'tools'));
    return t ? req(c, 'tools/call', { name: t.name, arguments: t.args }, { headers: { 'Mcp-Name': `${t.name}-other` } }) : null;
  } },
  { id: 'resources-read', stage: 3, build: (c) => {
    const r = listOf(c, 'resources-list', 'resources').find((x) => typeof x.uri === 'string');
    return r ? req(c, 'resources/read', { uri: r.uri }) : null;
  } },
  { id: 'resources-read-missing', stage: 3, build: (c) => req(c, 'resources/read', { uri: MISSING_URI }) },
  { id: 'prompts-get', stage: 3, build: (c) => {
    const p = pickPrompt(listOf(c, 'prompts-list', 'prompts'));
    return p ? req(c, 'prompts/get', { name: p.name, arguments: p.args }) : null;
  } },
  { id: 'prompts-get-unknown', stage: 3, build: (c) => req(c, 'prompts/get', { name: 'mcpgauge_no_such_prompt_7f3a', arguments: {} }) },
  // 4: raw bytes (stdio: one at a time, each closed by a sentinel request)
  { id: 'parse-error', stage: 4, build: (c) => ({ built: cheap(c).built, raw: '{"jsonrpc": "2.0", "id": 7, "method": "x", not json', expect: 'idless' }) },
  { id: 'invalid-request', stage: 4, build: (c) => ({ built: cheap(c).built, raw: JSON.stringify({ jsonrpc: '2.0', id: 'mcpgauge-invalid-request', method: 42 }), matchId: 'mcpgauge-invalid-request', expect: 'idless' }) },
  { id: 'partial-line', stage: 4, wires: STDIO, build: (c) => ({ ...cheap(c), split: true }) },
  { id: 'giant-line', stage: 4, wires: STDIO, build: (c) => cheap(c, { meta: { 'com.example.mcpgauge/pad': 'x'.repeat(GIANT_BYTES) } }) },
  // 5: invasive
  { id: 'oversized-input', stage: 5, build: (c) => {
    const t = pickTool(listOf(c, 'tools-list', 'tools'));
    return t ? req(c, 'tools/call', { name: t.name, arguments: { ...t.args, mcpgauge_pad: 'x'.repeat(OVERSIZED_BYTES) } }) : null;
  } },
  // 6: liveness after everything
  { id: 'alive', stage: 6, build: (c) => cheap(c) },
];
