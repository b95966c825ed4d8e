/**
 * Deprecated HTTP+SSE wire (2024-11-05 transport, still served by many 2025-11-25 servers):
 * GET opens an event stream whose first event, `endpoint`, names the URI to POST messages to;
 * each POST is acknowledged (202) and its JSON-RPC answer arrives later as a `message` event on
 * the stream, matched to the request by id. A POST refused outright (e.g. 400 with a JSON-RPC
 * parse error) is the exchange's answer. Bounded like the other wires: a timeout per request, a
 * cap on the stream buffer and on each POST body.
 */
import type { Exchange } from '../types.ts';
import { MAX_RESPONSE_BYTES, clip, idKey, isResponse, type Wire, type WireRequest } from './types.ts';

interface Waiting {
  ex: Exchange;
  resolve(): void;
}

export interface SseEvent {
  event: string;
  data: string;
}

/** Complete events at the head of `buf`, and what is left (an event ends at a blank line). */
export function takeSseEvents(buf: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  let rest = buf;
  let sep: RegExpExecArray | null;
  while ((sep = /\r?\n\r?\n/.exec(rest))) {
    const lines = rest.slice(0, sep.index).split(/\r?\n/);
    rest = rest.slice(sep.index + sep[0].length);
    const name = lines
      .find((l) => l.startsWith('event:'))
      ?.slice(6)
      .trim();
    const data = lines
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    // the SSE standard dispatches an unnamed event as "message"
    if (data || name) events.push({ event: name || 'message', data });
  }
  return { events, rest };
}

/** how long a raw write (no readable id) waits for an id-less answer on the stream */
const IDLESS_WINDOW_MS = 500;

export class SseWire implements Wire {
  readonly kind = 'sse' as const;
  private postUrl: string | null = null;
  private readonly ac = new AbortController();
  private readonly pending = new Map<string, Waiting>();
  private idless: Waiting | null = null;
  private idlessKey: string | null = null;
  private unattributed: unknown[] = [];
  private closed: string | null = null;

  constructor(
    readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly defaultTimeoutMs: number,
    private readonly redact: (h: Record<string, string>) => Record<string, string>,
    private readonly t0 = Date.now(),
  ) {}

  /** Opens the stream and waits for the `endpoint` event: the POST URI, or null (not an HTTP+SSE server). */
  async open(timeoutMs: number): Promise<string | null> {
    const timer = setTimeout(() => this.ac.abort(), timeoutMs);
    let res: Response;
    try {
      res = await fetch(this.url, {
        headers: { ...this.headers, Accept: 'text/event-stream' },
        signal: this.ac.signal,
        redirect: 'manual',
      });
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok || !(res.headers.get('content-type') ?? '').includes('text/event-stream') || !res.body) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    const reader = res.body.getReader();
    const endpoint = new Promise<string | null>((resolve) => {
      const give = setTimeout(() => resolve(null), timeoutMs);
      void this.pump(reader, (uri) => {
        clearTimeout(give);
        resolve(uri);
      }).finally(() => {
        clearTimeout(give);
        resolve(null);
      });
    });
    const uri = await endpoint;
    if (!uri) {
      this.ac.abort();
      return null;
    }
    this.postUrl = new URL(uri, this.url).href;
    return this.postUrl;
  }

  /** Reads the stream until it ends: the first `endpoint` event, then messages to their requests. */
  private async pump(reader: ReadableStreamDefaultReader<Uint8Array>, onEndpoint: (uri: string) => void): Promise<void> {
    const dec = new TextDecoder();
    let buf = '';
    let first = true;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        if (buf.length > MAX_RESPONSE_BYTES) throw new Error(`an SSE event exceeds ${MAX_RESPONSE_BYTES} bytes`);
        const { events, rest } = takeSseEvents(buf);
        buf = rest;
        for (const ev of events) {
          if (first) {
            first = false;
            if (ev.event !== 'endpoint') return;
            onEndpoint(ev.data.trim());
          } else if (ev.event === 'message') this.dispatch(ev.data);
        }
      }
      this.fail('the SSE stream ended');
    } catch (e) {
      this.fail(this.ac.signal.aborted ? 'the SSE stream was closed' : `the SSE stream broke: ${(e as Error).message}`);
    }
  }

  private dispatch(data: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(data);
    } catch {
      msg = { unparsedSseData: clip(data, 200) };
    }
    const id = isResponse(msg) ? (msg as { id?: unknown }).id : undefined;
    const w = id === undefined || id === null ? null : this.pending.get(idKey(id));
    const target =
      w ?? (this.idless && isResponse(msg) && (id === undefined || id === null || idKey(id) === this.idlessKey) ? this.idless : null);
    if (!target) {
      this.unattributed.push(msg);
      if (this.unattributed.length > 200) this.unattributed.shift();
      return;
    }
    const r = target.ex.response!;
    r.body += `\nevent: message\ndata: ${clip(data)}\n`;
    r.bodyBytes += Buffer.byteLength(data);
    r.messages.push(msg);
    target.resolve();
  }

  private fail(detail: string): void {
    this.closed ??= detail;
    for (const w of [...this.pending.values(), ...(this.idless ? [this.idless] : [])]) {
      w.ex.error ??= { kind: 'closed', detail };
      w.resolve();
    }
  }

  async send(req: WireRequest): Promise<Exchange> {
    const headers = { ...(req.http?.headers ?? {}) };
    const ex: Exchange = {
      probe: req.probe,
      wire: 'sse',
      at: Date.now() - this.t0,
      ms: 0,
      request: {
        http: { method: 'POST', url: this.postUrl ? new URL(this.postUrl).pathname : '', headers: this.redact(headers) },
        body: clip(req.body),
        bodyBytes: Buffer.byteLength(req.body),
        id: req.id,
      },
      response: null,
    };
    const started = Date.now();
    const finish = () => {
      ex.ms = Date.now() - started;
      return ex;
    };
    if (!this.postUrl || this.closed) {
      ex.error = { kind: this.postUrl ? 'closed' : 'unreachable', detail: this.closed ?? 'no HTTP+SSE stream is open' };
      return finish();
    }
    const timeoutMs = req.timeoutMs ?? this.defaultTimeoutMs;
    // the answer may overtake the POST's own acknowledgement: wait for it from before the POST
    const key = req.expect === 'reply' ? idKey(req.id) : null;
    let resolveAnswer!: () => void;
    const answered = new Promise<void>((r) => (resolveAnswer = r));
    const waiting: Waiting = { ex, resolve: resolveAnswer };
    ex.response = { body: '', bodyBytes: 0, messages: [] };
    if (key) this.pending.set(key, waiting);
    else if (req.expect === 'idless') {
      this.idless = waiting;
      this.idlessKey = req.id === null ? null : idKey(req.id);
    }
    const timer = setTimeout(
      () => {
        if (key) ex.error ??= { kind: 'timeout', detail: `no answer on the SSE stream within ${timeoutMs} ms` };
        resolveAnswer();
      },
      req.expect === 'idless' ? Math.min(timeoutMs, IDLESS_WINDOW_MS) : timeoutMs,
    );
    try {
      const res = await fetch(this.postUrl, {
        method: 'POST',
        headers,
        body: req.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      const rh: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        rh[k] = v;
      });
      Object.assign(ex.response, {
        status: res.status,
        headers: rh,
        body: clip(text) + ex.response.body,
        bodyBytes: Buffer.byteLength(text) + ex.response.bodyBytes,
      });
      if (text.trim()) {
        try {
          ex.response.messages.unshift(JSON.parse(text));
        } catch {
          /* an acknowledgement like "Accepted": not a message */
        }
      }
      // refused outright, or nothing to wait for: the POST's answer is the exchange's answer
      if (res.status >= 300 || req.expect === 'none') resolveAnswer();
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      ex.error = { kind: err.name === 'TimeoutError' ? 'timeout' : 'unreachable', detail: err.cause?.code ?? err.message };
      resolveAnswer();
    }
    await answered;
    clearTimeout(timer);
    if (key && this.pending.get(key) === waiting) this.pending.delete(key);
    if (this.idless === waiting) this.idless = null;
    if (!ex.response.status && !ex.response.messages.length) ex.response = null;
    return finish();
  }

  state() {
    return { noise: [], unattributed: [...this.unattributed], stderrTail: '' };
  }

  async close(): Promise<void> {
    this.ac.abort();
  }
}
