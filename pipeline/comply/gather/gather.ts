/**
 * Gathering: runs the probe list of one revision over one wire, stage by stage (requests in a
 * stage go out concurrently; stdio raw-byte probes one at a time, each closed by a sentinel
 * request). Returns Evidence; nothing here decides pass or fail.
 */
import { modernMeta, type EnvelopeState, type Obj } from './request-builder.ts';
import { PROBES } from './probes/index.ts';
import type { ProbeCtx, ProbeOut } from './probes/kit.ts';
import { LEGACY, MODERN, type Evidence, type Exchange, type Revision, type WireKind } from '../types.ts';
import type { Wire, WireRequest } from '../wire/types.ts';
import type { StdioWire } from '../wire/stdio.ts';

export interface GatherOptions {
  revision: Revision;
  wire: Wire;
  target: string;
  userHeaders: Record<string, string>;
  /** run the invasive stages (payloads, 1 MB argument, bursts) */
  invasive: boolean;
  /** the opening request may wait for a cold start: it gets this budget instead of the per-request timeout */
  startupTimeoutMs?: number;
  onProbe?: (done: number, total: number) => void;
}

import { replyOf } from './reply.ts';

export { replyOf };

function toWire(probe: string, out: ProbeOut, wireKind: WireKind): WireRequest {
  const msg = out.built?.message ?? {};
  const id = out.matchId !== undefined ? out.matchId : out.raw !== undefined ? null : ((msg.id as string | number | undefined) ?? null);
  return {
    probe,
    body: out.raw ?? JSON.stringify(msg),
    id,
    expect: out.expect ?? (id === null ? 'none' : 'reply'),
    http:
      wireKind !== 'stdio'
        ? { method: out.httpMethod ?? 'POST', headers: out.built?.headers ?? {}, ...(out.url ? { url: out.url } : {}) }
        : undefined,
    split: out.split,
    timeoutMs: out.timeoutMs,
    headersOnly: out.headersOnly,
    document: out.document,
  };
}

export async function gather(o: GatherOptions): Promise<Evidence> {
  const { wire, revision } = o;
  const env: EnvelopeState = { revision, userHeaders: o.userHeaders };
  const exchanges: Exchange[] = [];
  const byProbe = new Map<string, Exchange>();
  let id = 1000;
  const ctx: ProbeCtx = {
    rev: revision,
    wire: wire.kind,
    url: wire.kind !== 'stdio' ? o.target : undefined,
    env,
    nextId: () => id++,
    ex: (p) => byProbe.get(p),
    result: (p) => {
      const r = replyOf(byProbe.get(p))?.result;
      return r && typeof r === 'object' && !Array.isArray(r) ? (r as Obj) : undefined;
    },
  };
  const keep = (ex: Exchange) => {
    exchanges.push(ex);
    byProbe.set(ex.probe, ex);
  };
  const probes = PROBES.filter(
    (p) =>
      (!p.revisions || p.revisions.includes(revision)) &&
      (!p.wires || p.wires.includes(wire.kind)) &&
      (o.invasive || !(p.invasive || p.stage === 5)),
  );
  const stages = [...new Set(probes.map((p) => p.stage))].sort((a, b) => a - b);
  let done = 0;
  for (const stage of stages) {
    const inStage = probes.filter((p) => p.stage === stage);
    const built = inStage.map((p) => ({ p, out: p.build(ctx) }));
    const serial = wire.kind === 'stdio' && stage === 4;
    const run = async ({ p, out }: (typeof built)[number]) => {
      if (out) {
        const wr = toWire(p.id, out, wire.kind);
        if (stage === 0 && o.startupTimeoutMs) wr.timeoutMs = o.startupTimeoutMs;
        if (serial && wr.expect === 'idless') keep(await rawWithSentinel(wire as StdioWire, wr, ctx));
        else if (serial && wr.split) keep(await splitWithSentinel(wire as StdioWire, wr, ctx));
        else keep(await wire.send(wr));
      }
      o.onProbe?.(++done, probes.length);
    };
    if (serial) for (const b of built) await run(b);
    else await Promise.all(built.map(run));
    if (stage === 0) {
      learnHandshake(env, revision, byProbe.get('handshake'));
      // nothing answered the opening request: every later check is blocked by it, so stop here
      // (a silent, dead or garbage-speaking server costs one timeout, not one per probe)
      const h = byProbe.get('handshake');
      if (h && !replyOf(h) && h.error) break;
    }
  }
  const st = wire.state();
  return {
    revision,
    wire: wire.kind,
    target: o.target,
    exchanges,
    noise: st.noise,
    unattributed: st.unattributed,
    stderrTail: st.stderrTail,
    exit: st.exit,
    sessionId: env.sessionId,
    ...(st.anomalies?.length ? { anomalies: st.anomalies } : {}),
    warnings: [],
  };
}

/** Legacy: carry the negotiated version and the session id into later requests. */
function learnHandshake(env: EnvelopeState, revision: Revision, ex: Exchange | undefined): void {
  if (revision !== LEGACY || !ex) return;
  const r = replyOf(ex)?.result as Obj | undefined;
  // a malformed or later-than-offered version is judged by a check, not carried into every request
  const v = r?.protocolVersion;
  env.negotiated = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && v <= LEGACY ? v : LEGACY;
  const sid = ex.response?.headers?.['mcp-session-id'];
  if (sid) env.sessionId = sid;
}

/** a conformant cheap request sent after a stdio probe's bytes (server/discover or ping) */
function sentinelRequest(probe: string, ctx: ProbeCtx): WireRequest {
  const id = ctx.nextId();
  const m =
    ctx.rev === MODERN
      ? { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: modernMeta() } }
      : { jsonrpc: '2.0', id, method: 'ping' };
  return { probe: `${probe}#sentinel`, body: JSON.stringify(m), id, expect: 'reply' };
}

/** how long a request written in two chunks may take before a sentinel is sent after it */
export const SPLIT_QUICK_MS = 50;
/** how long it may then trail the answer to that sentinel */
export const SPLIT_GRACE_MS = 250;

/**
 * stdio, a request written in two chunks (partial-line probe). Answered within SPLIT_QUICK_MS (a
 * server that reassembles the line): that answer. Otherwise the same cheap request follows as a
 * sentinel, written after both chunks; answers come in the order the requests were read (as for
 * rawWithSentinel), so once the sentinel is answered the split request gets SPLIT_GRACE_MS more
 * and then counts as unanswered: a server that dropped the pieces costs a third of a second, not
 * the whole timeout. A sentinel left unanswered too leaves the split request to its own timeout.
 */
async function splitWithSentinel(wire: StdioWire, wr: WireRequest, ctx: ProbeCtx): Promise<Exchange> {
  const pending = wire.send(wr);
  let quick: NodeJS.Timeout | undefined;
  const first = await Promise.race([pending, new Promise<null>((r) => (quick = setTimeout(() => r(null), SPLIT_QUICK_MS)))]);
  clearTimeout(quick);
  if (first) return first;
  const s = await wire.send(sentinelRequest(wr.probe, ctx));
  if (!s.error && wr.id !== null) {
    const timer = setTimeout(
      () =>
        wire.giveUp(
          wr.id!,
          `no answer ${SPLIT_GRACE_MS} ms after the answer to a request sent after it (${s.ms} ms): the two chunks were not read as one line`,
        ),
      SPLIT_GRACE_MS,
    );
    void pending.finally(() => clearTimeout(timer));
  }
  return pending;
}

/**
 * stdio raw bytes: write them, then a conformant sentinel request; what arrives id-less (or
 * with the raw request's readable id) before the sentinel's answer belongs to the raw write.
 */
async function rawWithSentinel(wire: StdioWire, wr: WireRequest, ctx: ProbeCtx): Promise<Exchange> {
  const pending = wire.send(wr);
  const s = await wire.send(sentinelRequest(wr.probe, ctx));
  // an answer to the raw write was written before the sentinel's; give stragglers a moment
  await new Promise((r) => setTimeout(r, 20));
  wire.closeIdless();
  const ex = await pending;
  if (s.error && !ex.error) ex.error = { kind: s.error.kind, detail: `sentinel after the raw write: ${s.error.detail}` };
  return ex;
}
