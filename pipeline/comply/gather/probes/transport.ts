/** Probes added for the transport and stdio checks (a group file: the core list lives in probes.ts). */
import type { Obj } from '../request-builder.ts';
import { HTTP, L, UNKNOWN_TOOL, cheap, listOf, req, type Probe, type ProbeCtx } from './kit.ts';

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
  // the payload goes out in an echo tool's argument, or else as an unknown tool's name (most
  // servers quote the name in the error message); no tool with side effects is ever called
  { id: 'unicode-echo', stage: 3, build: (c) => {
    const echo = pickEcho(listOf(c, 'tools-list', 'tools'));
    return echo
      ? req(c, 'tools/call', { name: echo.name, arguments: { [echo.arg]: UNICODE_PAYLOAD } })
      : req(c, 'tools/call', { name: `${UNKNOWN_TOOL}_${UNICODE_PAYLOAD}`, arguments: {} });
  } },
  { id: 'version-header-bogus', stage: 2, revisions: L, wires: HTTP, build: (c) => cheap(c, { headers: { 'MCP-Protocol-Version': BOGUS_VERSION } }) },
  { id: 'session-missing', stage: 2, revisions: L, wires: HTTP, build: withSession((c) => cheap(c, { headers: { 'Mcp-Session-Id': null } })) },
  { id: 'session-unknown', stage: 2, revisions: L, wires: HTTP, build: withSession((c) => cheap(c, { headers: { 'Mcp-Session-Id': FABRICATED_SESSION } })) },
  // after every other probe (the liveness one included): end the session, then use it once more
  { id: 'session-delete', stage: 7, revisions: L, wires: HTTP, build: withSession((c) => ({ ...cheap(c), httpMethod: 'DELETE' })) },
  { id: 'session-after-delete', stage: 8, revisions: L, wires: HTTP, build: withSession((c) => {
    const st = c.ex('session-delete')?.response?.status;
    return st !== undefined && st >= 200 && st < 300 ? cheap(c) : null;
  }) },
];
