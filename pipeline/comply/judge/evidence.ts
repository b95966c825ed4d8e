/**
 * The judging half's read-only view of Evidence, with the one place that decides "whose
 * answer is this": a 401/429/gateway 5xx is not the server's verdict on a probe, and a
 * negative probe's rejection counts only when its conformant twin was served.
 */
import { replyOf } from '../gather/reply.ts';
import type { Obj } from '../gather/request-builder.ts';
import { MODERN, type Evidence, type Exchange, type Verdict } from '../types.ts';

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface Expect {
  /** probe id of the conformant twin (differs in one field); default 'twin' */
  twin?: string;
  /** accepted JSON-RPC error codes (absent = any error) */
  codes?: readonly number[];
  /** required HTTP status (HTTP only) */
  status?: number;
  /** a bare 4xx without a JSON-RPC body also counts as a rejection */
  bareStatusOk?: boolean;
}

export class View {
  constructor(readonly ev: Evidence) {}

  get rev() {
    return this.ev.revision;
  }
  get modern(): boolean {
    return this.ev.revision === MODERN;
  }
  get http(): boolean {
    return this.ev.wire === 'http';
  }
  x(probe: string): Exchange | undefined {
    return this.ev.exchanges.find((e) => e.probe === probe);
  }
  reply(probe: string): Obj | undefined {
    return replyOf(this.x(probe));
  }
  result(probe: string): Obj | undefined {
    const r = this.reply(probe)?.result;
    return r && typeof r === 'object' && !Array.isArray(r) ? (r as Obj) : undefined;
  }
  error(probe: string): RpcError | undefined {
    const e = this.reply(probe)?.error as RpcError | undefined;
    return e && typeof e === 'object' ? e : undefined;
  }
  status(probe: string): number | undefined {
    return this.x(probe)?.response?.status;
  }
  header(probe: string, name: string): string | undefined {
    return this.x(probe)?.response?.headers?.[name.toLowerCase()];
  }
  /** the server's declared capabilities (discover / initialize result) */
  caps(): Obj {
    const c = this.result('handshake')?.capabilities;
    return c && typeof c === 'object' ? (c as Obj) : {};
  }
  list(probe: string, key: string): Obj[] {
    const l = this.result(probe)?.[key];
    return Array.isArray(l) ? (l as Obj[]) : [];
  }
  /** every JSON-RPC message the server sent in this run (batch answers flattened) */
  messages(): Array<{ probe: string; msg: Obj }> {
    const out: Array<{ probe: string; msg: Obj }> = [];
    for (const e of this.ev.exchanges) {
      for (const m of e.response?.messages ?? []) {
        for (const one of Array.isArray(m) ? m : [m]) if (one && typeof one === 'object') out.push({ probe: e.probe, msg: one as Obj });
      }
    }
    for (const m of this.ev.unattributed)
      if (m && typeof m === 'object' && !Array.isArray(m)) out.push({ probe: '(unattributed)', msg: m as Obj });
    return out;
  }
  /** every result object, with its exchange and the method of the request that drew it (post-hoc scans) */
  results(): Array<{ ex: Exchange; result: Obj; method: string | undefined }> {
    const out: Array<{ ex: Exchange; result: Obj; method: string | undefined }> = [];
    for (const { ex, msg } of this.responses()) {
      const r = msg.result;
      if (r && typeof r === 'object' && !Array.isArray(r)) out.push({ ex, result: r as Obj, method: this.requestMethod(ex) });
    }
    return out;
  }
  /** responses (result or error) paired with the request that drew them */
  responses(): Array<{ ex: Exchange; msg: Obj }> {
    const out: Array<{ ex: Exchange; msg: Obj }> = [];
    for (const e of this.ev.exchanges) {
      // an auth gate or rate limiter (401/403/407/429) answers at the HTTP level: a body that does
      // not claim to be JSON-RPC ({"error": "missing API key"}) is not judged as a JSON-RPC response
      const gate = [401, 403, 407, 429].includes(e.response?.status ?? 0);
      for (const m of e.response?.messages ?? []) {
        if (gate && (m as Obj | null)?.jsonrpc === undefined) continue;
        if (m && typeof m === 'object' && !Array.isArray(m) && ('result' in m || 'error' in m)) out.push({ ex: e, msg: m as Obj });
      }
    }
    return out;
  }
  requestMethod(ex: Exchange): string | undefined {
    try {
      const m = JSON.parse(ex.request.body) as { method?: unknown };
      return typeof m.method === 'string' ? m.method : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Why this probe's answer says nothing about the server (or null when it does):
   * absent probe, unreachable, auth gate, rate limit, gateway 5xx. A death or a timeout
   * on stdio is the server's own doing and is left to the check.
   */
  unusable(probe: string, ownCodes: readonly number[] = []): Verdict | null {
    const e = this.x(probe);
    if (!e) return { status: 'not_evaluable', reason: 'no_population', detail: `probe ${probe} was not sent (nothing to send it with)` };
    if (e.error?.kind === 'unreachable') return { status: 'not_evaluable', reason: 'unreachable', detail: e.error.detail };
    const st = e.response?.status;
    if (st === undefined) return null;
    const code = (replyOf(e)?.error as RpcError | undefined)?.code;
    const challenge = /bearer/i.test(e.response?.headers?.['www-authenticate'] ?? '');
    if (st === 401 || (st === 403 && challenge))
      return { status: 'not_evaluable', reason: 'auth_gate', detail: `HTTP ${st}: an authentication gate answered (pass --auth)` };
    if (st === 429) return { status: 'not_evaluable', reason: 'rate_limited', detail: 'HTTP 429: rate limited' };
    if (st >= 500 && !(code !== undefined && ownCodes.includes(code))) {
      return {
        status: 'not_evaluable',
        reason: 'gateway_5xx',
        detail: `HTTP ${st} without the check's own JSON-RPC code: may be a gateway, not the server`,
      };
    }
    return null;
  }

  /** The twin was served: a result came back for the conformant request. */
  twinServed(twin: string): boolean {
    return this.result(twin) !== undefined;
  }

  /**
   * A negative probe: rejected for the right reason (code/status), counted only when the
   * conformant twin was served.
   */
  rejected(probe: string, what: string, x: Expect = {}): Verdict {
    const gate = this.unusable(probe, x.codes ?? []);
    if (gate) return gate;
    const twin = x.twin ?? 'twin';
    if (!this.twinServed(twin)) {
      const te = this.x(twin);
      const why =
        te?.error?.detail ??
        (this.error(twin) ? `error ${this.error(twin)!.code}` : te?.response?.status ? `HTTP ${te.response.status}` : 'no result');
      return {
        status: 'not_evaluable',
        reason: 'twin_failed',
        detail: `the conformant twin request (${twin}) was not served either (${why}), so a rejection proves nothing`,
      };
    }
    const e = this.x(probe)!;
    if (e.error?.kind === 'died') return { status: 'fail', detail: `${what}: the server died (${e.error.detail})` };
    if (e.error?.kind === 'timeout' && !e.response) return { status: 'fail', detail: `${what}: no answer within the timeout` };
    if (e.error?.kind === 'unframed') return { status: 'fail', detail: `${what}: ${e.error.detail}` };
    const err = this.error(probe);
    const st = e.response?.status;
    const stTxt = this.http ? ` (HTTP ${st})` : '';
    if (err) {
      if (x.codes && !x.codes.includes(err.code))
        return { status: 'fail', detail: `${what}: rejected with ${err.code}${stTxt}, expected ${x.codes.join(' or ')}` };
      if (this.http && x.status !== undefined && st !== x.status)
        return { status: 'fail', detail: `${what}: error ${err.code} with HTTP ${st}, expected HTTP ${x.status}` };
      return { status: 'pass', detail: `${what}: rejected with ${err.code}${stTxt}; the twin was served` };
    }
    const res = this.result(probe);
    if (res) {
      // say what came back: a tool-execution error result is not "served as if valid"
      if (res.isError === true) {
        const first = Array.isArray(res.content)
          ? (res.content as Array<{ text?: unknown }>).find((c) => typeof c?.text === 'string')?.text
          : undefined;
        return {
          status: 'fail',
          detail: `${what}: answered with a result carrying isError: true${first ? ` (${JSON.stringify(String(first).slice(0, 120))})` : ''} instead of a JSON-RPC error${stTxt}`,
        };
      }
      return { status: 'fail', detail: `${what}: served as if valid (a normal result)${stTxt}` };
    }
    if (this.http && st !== undefined && st >= 400 && st < 500) {
      if (x.bareStatusOk && (x.status === undefined || st === x.status))
        return { status: 'pass', detail: `${what}: HTTP ${st} (no JSON-RPC body)` };
      return { status: 'fail', detail: `${what}: HTTP ${st} without the JSON-RPC error${x.codes ? ` ${x.codes.join('/')}` : ''}` };
    }
    return { status: 'fail', detail: `${what}: no JSON-RPC error came back${stTxt}` };
  }

  /** A request that must be served: a result, not an error (with the usual gates). */
  served(probe: string, what: string): Verdict | { ok: Obj } {
    const gate = this.unusable(probe);
    if (gate) return gate;
    const e = this.x(probe)!;
    if (e.error && !this.reply(probe)) return { status: 'fail', detail: `${what}: ${e.error.detail}` };
    const err = this.error(probe);
    if (err) return { status: 'fail', detail: `${what}: error ${err.code} ${JSON.stringify(err.message ?? '').slice(0, 120)}` };
    const r = this.result(probe);
    if (!r) return { status: 'fail', detail: `${what}: no result object${this.http ? ` (HTTP ${e.response?.status})` : ''}` };
    return { ok: r };
  }
}

export function isVerdict(v: unknown): v is Verdict {
  return typeof v === 'object' && v !== null && 'status' in v;
}
