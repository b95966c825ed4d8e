/**
 * Probes (the gathering half): each one is a request built from the canonical envelope, run in
 * a stage (later stages may read earlier answers). Probes never judge; checks read their
 * exchanges. The list is data; gather.ts runs it.
 */
import { K_CAPS, K_INFO, K_VERSION, build, initializeParams, type BuildOptions, type Obj } from '../request-builder.ts';
import { LEGACY, MODERN } from '../../types.ts';
import {
  EVIL_ORIGIN, GIANT_BYTES, HTTP, L, M, MISSING_URI, OVERSIZED_BYTES, STDIO, STRING_ID, UNKNOWN_TOOL,
  cheap, listOf, pickPrompt, pickTool, req, type Probe,
} from './kit.ts';
import { TRANSPORT_PROBES } from './transport.ts';
import { LIFECYCLE_PROBES } from './lifecycle.ts';
import { SECURITY_PROBES } from './security.ts';

export * from './kit.ts';

const CORE_PROBES: readonly Probe[] = [
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
  { id: 'meta-no-version', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: [K_VERSION] }) },
  { id: 'meta-no-caps', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: [K_CAPS] }) },
  { id: 'meta-no-info', stage: 2, revisions: M, build: (c) => req(c, 'server/discover', {}, { omitMeta: [K_INFO] }) },
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
    build: (c) => req(c, 'server/discover', {}, { meta: { [K_VERSION]: '1999-01-01' }, headers: { 'MCP-Protocol-Version': '1999-01-01' } }),
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

/** Every probe: the core list, then the group lists (one file per group, each an addition). */
export const PROBES: readonly Probe[] = [...CORE_PROBES, ...TRANSPORT_PROBES, ...LIFECYCLE_PROBES, ...SECURITY_PROBES];
