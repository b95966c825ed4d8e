/** Small helpers the steps share: deadlines, JSON results, nonces, error classification. */
import { randomBytes } from 'node:crypto';
import { resultText, type CallResult } from '../mcp/client.ts';
import type { ProxySession } from '../adapter/index.ts';
import type { CellContext } from './types.ts';

export function nonce(prefix = 'g'): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export class DeadlineError extends Error {}

/** `p` or a DeadlineError after `ms` (the promise keeps running; callers abort it if they can). */
export async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, rej) => (t = setTimeout(() => rej(new DeadlineError(`${what}: no answer within ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(t);
    p.catch(() => {});
  }
}

export function oneLine(s: unknown, max = 300): string {
  const t = String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

export function mainSession(ctx: CellContext): ProxySession {
  if (!ctx.session) throw new Error('no session with the proxy (the ready step did not open one)');
  return ctx.session;
}

/** Parse the text of a successful tool result as JSON; a tool error or non-JSON text throws. */
export function jsonOf(r: CallResult, what: string): any {
  const text = resultText(r);
  if (r.isError) throw new Error(`${what} returned a tool error: ${oneLine(text)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} did not return JSON: ${oneLine(text)}`);
  }
}

/** Call `server:tool` through the proxy and parse its JSON answer. */
export async function callJson(s: ProxySession, tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<any> {
  // a call the gate gives up on is cancelled, so it cannot reach the upstream later
  const ac = new AbortController();
  try {
    return jsonOf(await within(s.call(tool, args, { timeoutMs, signal: ac.signal }), timeoutMs + 500, tool), tool);
  } catch (e) {
    ac.abort();
    throw e;
  }
}

/** A well-formed error answer: a tool error (isError) or a JSON-RPC error from the proxy. */
export type CallOutcome =
  | { kind: 'ok'; result: CallResult; ms: number }
  | { kind: 'tool_error'; text: string; ms: number }
  | { kind: 'rpc_error'; code: number; message: string; ms: number }
  | { kind: 'transport_error'; message: string; ms: number }
  /** `late`: an answer that came, but after the deadline (what it was) */
  | { kind: 'no_answer'; ms: number; late?: string };

export async function outcomeOf(p: Promise<CallResult>, deadlineMs: number): Promise<CallOutcome> {
  const t0 = performance.now();
  // the race alone is not the verdict: on a loaded machine the deadline's timer can fire late, and
  // an answer that came after the deadline then wins it (seen: a slow_close answer at ~6.0x s
  // credited against a 6 s deadline). An answer observed after the deadline is no answer within it.
  const late = (ms: number, what: string, detail = ''): CallOutcome | undefined =>
    ms > deadlineMs ? { kind: 'no_answer', ms: deadlineMs, late: `${what} after ${Math.round(ms)} ms${detail}` } : undefined;
  try {
    const result = await within(p, deadlineMs, 'call');
    const ms = performance.now() - t0;
    const tooLate = late(ms, result.isError ? 'a tool error' : 'a result');
    if (tooLate) return tooLate;
    if (result.isError) return { kind: 'tool_error', text: oneLine(resultText(result)), ms };
    return { kind: 'ok', result, ms };
  } catch (e) {
    const ms = performance.now() - t0;
    if (e instanceof DeadlineError) return { kind: 'no_answer', ms };
    const tooLate = late(ms, 'an error', `: ${oneLine((e as Error).message, 120)}`);
    if (tooLate) return tooLate;
    const err = e as Error & { code?: unknown };
    // the SDK's own request timeout is the client giving up, not an answer
    if (err.code === 'REQUEST_TIMEOUT') return { kind: 'no_answer', ms };
    if (typeof err.code === 'number') return { kind: 'rpc_error', code: err.code, message: oneLine(err.message), ms };
    return { kind: 'transport_error', message: oneLine(err.message), ms };
  }
}

export function describeOutcome(o: CallOutcome): string {
  switch (o.kind) {
    case 'ok':
      return `succeeded after ${Math.round(o.ms)} ms: ${oneLine(resultText(o.result), 120)}`;
    case 'tool_error':
      return `tool error after ${Math.round(o.ms)} ms: ${o.text}`;
    case 'rpc_error':
      return `JSON-RPC error ${o.code} after ${Math.round(o.ms)} ms: ${o.message}`;
    case 'transport_error':
      return `transport error after ${Math.round(o.ms)} ms: ${o.message}`;
    case 'no_answer':
      return `no answer within ${Math.round(o.ms)} ms${o.late ? ` (${o.late})` : ''}`;
  }
}
