/** Probes of the transport checks (streamable HTTP and stdio): verbs, headers, sessions, batches, raw lines, a Unicode round trip. */
import { build, type Obj } from '../request-builder.ts';
import { HTTP, L, M, STDIO, UNKNOWN_TOOL, cheap, listOf, pickTool, req, type Probe, type ProbeCtx } from './kit.ts';

/** the giant line's size: one 2 MiB stdio line */
export const GIANT_BYTES = 2 * 1024 * 1024;
/** a foreign Origin (a DNS-rebinding page) */
export const EVIL_ORIGIN = 'https://evil-rebinding.example';
/** CJK, a combining accent, an astral-plane emoji and a ZWJ sequence: each breaks a different encoding mistake. */
export const UNICODE_PAYLOAD = '漢字かな한글 é ñ 🙂 👩‍💻 𝄞';
/** a session id no server issued */
export const FABRICATED_SESSION = 'mcpgauge-unknown-session-7f3a';
/** a protocol version no server supports */
export const BOGUS_VERSION = '1999-01-01';
const ECHO_ARG = /^(message|text|input|query|value|content)$/;

/**
 * The harmless tool that echoes a string argument: named "echo", annotated read-only, and
 * taking one string argument of a common echo name (and no other required argument).
 */
export function pickEcho(tools: Obj[]): { name: string; arg: string } | null {
  for (const t of tools) {
    if (t.name !== 'echo' || (t.annotations as Obj | undefined)?.readOnlyHint !== true) continue;
    const schema = (t.inputSchema ?? {}) as { properties?: Record<string, { type?: unknown; pattern?: unknown }>; required?: unknown };
    const props = schema.properties ?? {};
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const arg = Object.keys(props).find((k) => ECHO_ARG.test(k) && props[k].type === 'string' && props[k].pattern === undefined);
    if (arg && required.every((r) => r === arg)) return { name: t.name, arg };
  }
  return null;
}

/** legacy HTTP probes that only make sense once the server issued a session */
const withSession = (build: (c: ProbeCtx) => ReturnType<Probe['build']>) => (c: ProbeCtx) => (c.env.sessionId ? build(c) : null);

export const TRANSPORT_PROBES: readonly Probe[] = [
  // HTTP verbs, headers and sessions; a batch; stdio raw bytes (split and giant lines)
  {
    id: 'batch',
    stage: 4,
    build: (c) => {
      const a = cheap(c).built!;
      const b = cheap(c).built!;
      return { built: a, raw: JSON.stringify([a.message, b.message]), expect: 'idless' };
    },
  },
  {
    id: 'notification',
    stage: 2,
    build: (c) => ({
      built: build(c.env, null, 'notifications/cancelled', { requestId: 'mcpgauge-never-sent', reason: 'probe' }),
      expect: c.wire === 'http' ? 'reply' : 'none',
    }),
  },
  {
    id: 'get',
    stage: 2,
    wires: HTTP,
    build: (c) => ({
      built: { message: {}, headers: { ...cheap(c).built!.headers, Accept: 'text/event-stream' } },
      httpMethod: 'GET',
      headersOnly: true,
    }),
  },
  { id: 'delete', stage: 2, revisions: M, wires: HTTP, build: (c) => ({ ...cheap(c), httpMethod: 'DELETE' }) },
  { id: 'content-type-text', stage: 2, wires: HTTP, build: (c) => cheap(c, { headers: { 'Content-Type': 'text/plain' } }) },
  { id: 'origin-evil', stage: 2, wires: HTTP, build: (c) => cheap(c, { headers: { Origin: EVIL_ORIGIN } }) },
  {
    id: 'session-fabricated',
    stage: 2,
    revisions: M,
    wires: HTTP,
    build: (c) => cheap(c, { headers: { 'Mcp-Session-Id': 'mcpgauge-fabricated-session' } }),
  },
  { id: 'header-no-version', stage: 2, revisions: M, wires: HTTP, build: (c) => cheap(c, { headers: { 'MCP-Protocol-Version': null } }) },
  {
    id: 'header-version-mismatch',
    stage: 2,
    revisions: M,
    wires: HTTP,
    build: (c) => cheap(c, { headers: { 'MCP-Protocol-Version': '1999-01-01' } }),
  },
  { id: 'header-no-method', stage: 2, revisions: M, wires: HTTP, build: (c) => cheap(c, { headers: { 'Mcp-Method': null } }) },
  {
    id: 'header-method-mismatch',
    stage: 2,
    revisions: M,
    wires: HTTP,
    build: (c) => cheap(c, { headers: { 'Mcp-Method': 'tools/list' } }),
  },
  {
    id: 'header-lowercase',
    stage: 2,
    revisions: M,
    wires: HTTP,
    build: (c) => {
      const b = cheap(c).built!;
      return {
        built: { message: b.message, headers: Object.fromEntries(Object.entries(b.headers).map(([k, v]) => [k.toLowerCase(), v])) },
      };
    },
  },
  {
    id: 'header-name-mismatch',
    stage: 3,
    revisions: M,
    wires: HTTP,
    build: (c) => {
      const t = pickTool(listOf(c, 'tools-list', 'tools'));
      return t ? req(c, 'tools/call', { name: t.name, arguments: t.args }, { headers: { 'Mcp-Name': `${t.name}-other` } }) : null;
    },
  },
  { id: 'partial-line', stage: 4, wires: STDIO, build: (c) => ({ ...cheap(c), split: true }) },
  { id: 'giant-line', stage: 4, wires: STDIO, build: (c) => cheap(c, { meta: { 'com.example.mcpgauge/pad': 'x'.repeat(GIANT_BYTES) } }) },
  // the payload goes out in an echo tool's argument, or else as an unknown tool's name (most
  // servers quote the name in the error message); no tool with side effects is ever called
  {
    id: 'unicode-echo',
    stage: 3,
    build: (c) => {
      const echo = pickEcho(listOf(c, 'tools-list', 'tools'));
      return echo
        ? req(c, 'tools/call', { name: echo.name, arguments: { [echo.arg]: UNICODE_PAYLOAD } })
        : req(c, 'tools/call', { name: `${UNKNOWN_TOOL}_${UNICODE_PAYLOAD}`, arguments: {} });
    },
  },
  {
    id: 'version-header-bogus',
    stage: 2,
    revisions: L,
    wires: HTTP,
    build: (c) => cheap(c, { headers: { 'MCP-Protocol-Version': BOGUS_VERSION } }),
  },
  {
    id: 'session-missing',
    stage: 2,
    revisions: L,
    wires: HTTP,
    build: withSession((c) => cheap(c, { headers: { 'Mcp-Session-Id': null } })),
  },
  {
    id: 'session-unknown',
    stage: 2,
    revisions: L,
    wires: HTTP,
    build: withSession((c) => cheap(c, { headers: { 'Mcp-Session-Id': FABRICATED_SESSION } })),
  },
  // after every other probe (the liveness one included): end the session, then use it once more
  { id: 'session-delete', stage: 7, revisions: L, wires: HTTP, build: withSession((c) => ({ ...cheap(c), httpMethod: 'DELETE' })) },
  {
    id: 'session-after-delete',
    stage: 8,
    revisions: L,
    wires: HTTP,
    build: withSession((c) => {
      const st = c.ex('session-delete')?.response?.status;
      return st !== undefined && st >= 200 && st < 300 ? cheap(c) : null;
    }),
  },
];
