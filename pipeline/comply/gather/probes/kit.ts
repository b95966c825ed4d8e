/**
 * The probe kit: the Probe shape and the helpers the probe lists share (request builders, tool and
 * prompt pickers, the next page, probe constants). Every category file (`<category>.ts`) imports
 * from here; `index.ts` concatenates the category lists.
 */
import { build, type Built, type BuildOptions, type EnvelopeState, type Obj } from '../request-builder.ts';
import { LEGACY, MODERN, type Exchange, type Revision, type WireKind } from '../../types.ts';

export interface ProbeCtx {
  rev: Revision;
  wire: WireKind;
  /** HTTP: the target URL */
  url?: string;
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
  /** HTTP: an absolute URL other than the target's (the request still carries `built`'s headers) */
  url?: string;
  /** HTTP: the answer is a document (e.g. RFC 9728 metadata), kept as body text, never read as JSON-RPC */
  document?: boolean;
  expect?: 'reply' | 'none' | 'idless';
  split?: boolean;
  timeoutMs?: number;
  headersOnly?: boolean;
  /** raw bytes whose JSON-RPC id is still readable: the answer is matched on it */
  matchId?: string | number;
}

export interface Probe {
  id: string;
  /** 0 handshake, 1 post-handshake, 2 independent, 3 needs lists, 4 raw/serial, 5 invasive, 6 liveness (fractions run between) */
  stage: number;
  revisions?: readonly Revision[];
  wires?: readonly WireKind[];
  /** left out by --no-invasive (as every stage-5 probe is): payloads, bursts */
  invasive?: boolean;
  build(c: ProbeCtx): ProbeOut | null;
}

export const req = (
  c: ProbeCtx,
  method: string,
  params: Obj = {},
  opts: BuildOptions = {},
  id: string | number = c.nextId(),
): ProbeOut => ({
  built: build(c.env, id, method, params, opts),
});
/** The cheapest conformant request of the era: discover (modern) or ping (legacy). */
export const cheap = (c: ProbeCtx, opts: BuildOptions = {}, id: string | number = c.nextId()): ProbeOut =>
  c.rev === MODERN ? req(c, 'server/discover', {}, opts, id) : req(c, 'ping', {}, opts, id);

type Tool = { name?: unknown; inputSchema?: { required?: unknown; properties?: Record<string, { type?: unknown }> }; annotations?: Obj };

export function listOf(c: ProbeCtx, probe: string, key: string): Obj[] {
  const r = c.result(probe)?.[key];
  return Array.isArray(r) ? (r.filter((x) => x && typeof x === 'object') as Obj[]) : [];
}

/** The tool a harmless call can go to: no required arguments, read-only first. */
export function pickTool(tools: Obj[]): { name: string; args: Obj } | null {
  const named = (tools as Tool[]).filter((t) => typeof t.name === 'string');
  const noReq = named.filter((t) => !Array.isArray(t.inputSchema?.required) || (t.inputSchema!.required as unknown[]).length === 0);
  const ro = (l: Tool[]) => [
    ...l.filter((t) => t.annotations?.readOnlyHint === true),
    ...l.filter((t) => t.annotations?.readOnlyHint !== true),
  ];
  const t = ro(noReq)[0];
  if (t) return { name: t.name as string, args: {} };
  for (const cand of ro(named)) {
    const reqd = cand.inputSchema!.required as string[];
    const props = cand.inputSchema?.properties ?? {};
    if (reqd.every((k) => props[k]?.type === 'string'))
      return { name: cand.name as string, args: Object.fromEntries(reqd.map((k) => [k, 'mcpgauge'])) };
  }
  return null;
}

/** the page after `first`, when it named a string cursor */
export function nextPage(c: ProbeCtx, first: string, method: string): ProbeOut | null {
  const cur = c.result(first)?.nextCursor;
  return typeof cur === 'string' ? req(c, method, { cursor: cur }) : null;
}

export function pickPrompt(prompts: Obj[]): { name: string; args: Obj } | null {
  for (const p of prompts) {
    if (typeof p.name !== 'string') continue;
    const args = Array.isArray(p.arguments) ? (p.arguments as Obj[]) : [];
    return {
      name: p.name,
      args: Object.fromEntries(
        args.filter((a) => a.required === true && typeof a.name === 'string').map((a) => [a.name as string, 'mcpgauge']),
      ),
    };
  }
  return null;
}

export const HTTP: readonly WireKind[] = ['http'];
export const STDIO: readonly WireKind[] = ['stdio'];
export const M: readonly Revision[] = [MODERN];
export const L: readonly Revision[] = [LEGACY];
export const UNKNOWN_TOOL = 'mcpgauge_no_such_tool_7f3a';
