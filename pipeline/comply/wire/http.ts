/**
 * HTTP wire: one fetch per request (loopback or remote), bounded everywhere: a timeout per
 * request, a body cap (a 50 MB answer is cut and reported), and SSE read only until the
 * response for the request's id arrives (a never-ending stream is cancelled then).
 */
import type { Exchange } from '../types.ts';
import { MAX_RESPONSE_BYTES, clip, idKey, isResponse, type Wire, type WireRequest } from './types.ts';

export class HttpWire implements Wire {
  readonly kind = 'http' as const;
  constructor(
    readonly url: string,
    private readonly defaultTimeoutMs: number,
    /** returns the header map with secret values replaced, for the record */
    private readonly redact: (h: Record<string, string>) => Record<string, string>,
    private readonly t0 = Date.now(),
  ) {}

  async send(req: WireRequest): Promise<Exchange> {
    const method = req.http?.method ?? 'POST';
    const headers = req.http?.headers ?? {};
    const hasBody = method === 'POST' || method === 'PUT';
    const url = req.http?.url ?? this.url;
    const ex: Exchange = {
      probe: req.probe,
      wire: 'http',
      at: Date.now() - this.t0,
      ms: 0,
      request: {
        // the path only: a query string may carry a credential (the token-in-URI probe)
        http: { method, url: new URL(url).pathname, headers: this.redact(headers) },
        body: hasBody ? clip(req.body) : '',
        bodyBytes: hasBody ? Buffer.byteLength(req.body) : 0,
        id: req.id,
      },
      response: null,
    };
    const timeoutMs = req.timeoutMs ?? this.defaultTimeoutMs;
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    const started = Date.now();
    try {
      const res = await fetch(url, { method, headers, body: hasBody ? req.body : undefined, signal: ac.signal, redirect: 'manual' });
      const rh: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        rh[k] = v;
      });
      const r: NonNullable<Exchange['response']> = { status: res.status, headers: rh, body: '', bodyBytes: 0, messages: [] };
      ex.response = r;
      const ct = (rh['content-type'] ?? '').toLowerCase();
      if (req.headersOnly) await res.body?.cancel().catch(() => {});
      else if (res.body) {
        if (ct.includes('text/event-stream')) await this.readSse(res.body, r, req, ex);
        else await this.readAll(res.body, r, ex);
      }
      if (!req.document && !ct.includes('text/event-stream') && r.body.trim() && !r.truncated) {
        try {
          const parsed = JSON.parse(r.body);
          r.messages.push(parsed);
        } catch {
          /* not JSON: left as body text */
        }
      }
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      if (ac.signal.aborted) ex.error = { kind: 'timeout', detail: `no complete answer within ${timeoutMs} ms` };
      else ex.error = { kind: ex.response ? 'closed' : 'unreachable', detail: `${err.cause?.code ?? err.message}` };
    } finally {
      clearTimeout(timer);
      ex.ms = Date.now() - started;
    }
    return ex;
  }

  private async readAll(body: ReadableStream<Uint8Array>, r: NonNullable<Exchange['response']>, ex: Exchange): Promise<void> {
    const reader = body.getReader();
    const parts: Buffer[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      r.bodyBytes += value.length;
      if (r.bodyBytes > MAX_RESPONSE_BYTES) {
        r.truncated = true;
        ex.error = { kind: 'too_large', detail: `response body exceeds ${MAX_RESPONSE_BYTES} bytes (cut)` };
        await reader.cancel().catch(() => {});
        break;
      }
      parts.push(Buffer.from(value));
    }
    r.body = Buffer.concat(parts).toString('utf8');
  }

  /** Reads SSE events until the response for req.id arrives (then cancels), or the cap. */
  private async readSse(
    body: ReadableStream<Uint8Array>,
    r: NonNullable<Exchange['response']>,
    req: WireRequest,
    ex: Exchange,
  ): Promise<void> {
    const reader = body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    let kept = '';
    const want = idKey(req.id);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      r.bodyBytes += value.length;
      const text = dec.decode(value, { stream: true });
      buf += text;
      if (kept.length < 65536) kept += text;
      if (r.bodyBytes > MAX_RESPONSE_BYTES) {
        r.truncated = true;
        ex.error = { kind: 'too_large', detail: `SSE stream exceeds ${MAX_RESPONSE_BYTES} bytes (cut)` };
        break;
      }
      let sep: RegExpExecArray | null;
      let got = false;
      while ((sep = /\r?\n\r?\n/.exec(buf))) {
        const event = buf.slice(0, sep.index);
        buf = buf.slice(sep.index + sep[0].length);
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).replace(/^ /, ''))
          .join('\n');
        if (!data) continue;
        try {
          const m = JSON.parse(data);
          r.messages.push(m);
          if (isResponse(m) && (req.id === null || idKey((m as { id?: unknown }).id) === want)) got = true;
        } catch {
          r.messages.push({ unparsedSseData: clip(data, 200) });
        }
      }
      if (got) break;
    }
    r.body = clip(kept);
    await reader.cancel().catch(() => {});
  }

  state() {
    return { noise: [], unattributed: [], stderrTail: '' };
  }

  async close(): Promise<void> {}
}
