/**
 * The stdio server transport of the fixture and the reference proxy: newline-delimited JSON-RPC
 * on stdin/stdout, the SDK's StdioServerTransport framing, with three differences:
 *
 * - Limits and bad input are answered, never swallowed: a message longer than
 *   `maxMessageBytes` (default 10 MiB, as the SDK) gets a JSON-RPC error (-32600, with the
 *   request id when it stands before `params`, else null) and the rest of that line is skipped;
 *   a line that is not JSON gets -32700, JSON that is not a JSON-RPC message gets -32600. The
 *   transport keeps reading (the SDK's transport stops reading on an over-long message, so the
 *   end of stdin is never seen and the process outlives its client).
 * - End of input: `onInputEnd` (when set) is called instead of closing at once, so the owner can
 *   let requests already in flight be answered first (`settled()`), then close.
 * - Speed (fixture fast path): with `fastParse`, a plain `tools/call` request is handed on after
 *   JSON.parse without the SDK's per-message schema parse; writes made in one tick are coalesced.
 *   Every other message is validated with the SDK's own `deserializeMessage`.
 */
import { deserializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import type { Readable, Writable } from 'node:stream';
import { INVALID_REQUEST, PARSE_ERROR } from './envelope.ts';

/** Largest stdio message accepted (bytes of one line, without the newline); as the SDK's default. */
export const STDIO_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export { INVALID_REQUEST, PARSE_ERROR };

type Id = string | number;

function isPlainToolCall(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown };
  return (
    m.jsonrpc === '2.0' &&
    m.method === 'tools/call' &&
    (typeof m.id === 'string' || (typeof m.id === 'number' && Number.isInteger(m.id))) &&
    typeof m.params === 'object' &&
    m.params !== null &&
    !Array.isArray(m.params)
  );
}

/** The request id of a (possibly truncated) message, when it stands before `params`. */
export function leadingId(prefix: string): Id | null {
  const head = prefix.slice(0, 4096);
  const cut = head.indexOf('"params"');
  const m = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,15})/.exec(cut >= 0 ? head.slice(0, cut) : head);
  if (!m) return null;
  try {
    return JSON.parse(m[1]) as Id;
  } catch {
    return null;
  }
}

export interface LeanStdioOptions {
  /** skip the SDK schema parse for plain tools/call requests (fixture fast path); default true */
  fastParse?: boolean;
  maxMessageBytes?: number;
}

export class LeanStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** stdin ended (or closed); without a handler the transport closes at once */
  onInputEnd?: () => void;
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** inside an over-long line: drop bytes until the next newline */
  private skipping = false;
  private started = false;
  private closed = false;
  private inputEnded = false;
  private corked = false;
  /** requests handed on and not answered yet */
  private pending = new Set<Id>();
  private waiters: (() => void)[] = [];
  private readonly fastParse: boolean;
  private readonly max: number;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    opts: LeanStdioOptions = {},
  ) {
    this.fastParse = opts.fastParse ?? true;
    this.max = opts.maxMessageBytes ?? STDIO_MAX_MESSAGE_BYTES;
  }

  private ondata = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (;;) {
      const nl = buf.indexOf(0x0a);
      if (this.skipping) {
        if (nl < 0) return;
        this.skipping = false;
        buf = buf.subarray(nl + 1);
        continue;
      }
      if (nl < 0) {
        if (buf.length) {
          this.chunks.push(buf);
          this.buffered += buf.length;
        }
        if (this.buffered > this.max) this.overLong();
        return;
      }
      const part = buf.subarray(0, nl);
      buf = buf.subarray(nl + 1);
      if (this.buffered + part.length > this.max) {
        this.chunks.push(part);
        this.buffered += part.length;
        this.overLong();
        this.skipping = false; // the newline ending it is already consumed
        continue;
      }
      const line = this.chunks.length ? Buffer.concat([...this.chunks, part]).toString('utf8') : part.toString('utf8');
      this.chunks = [];
      this.buffered = 0;
      this.handleLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
  };

  private overLong(): void {
    const head = Buffer.concat(this.chunks).subarray(0, 4096).toString('utf8');
    this.chunks = [];
    this.buffered = 0;
    this.skipping = true;
    const msg = `message exceeds the stdio limit of ${this.max} bytes; skipped`;
    this.onerror?.(new Error(msg));
    this.reply(leadingId(head), INVALID_REQUEST, msg);
  }

  private handleLine(line: string): void {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      this.onerror?.(new Error(`malformed JSON line: ${(e as Error).message}`));
      this.reply(null, PARSE_ERROR, `Parse error: ${(e as Error).message}`);
      return;
    }
    let msg: JSONRPCMessage;
    try {
      msg = this.fastParse && isPlainToolCall(raw) ? (raw as JSONRPCMessage) : deserializeMessage(line);
    } catch (e) {
      const id = (raw as { id?: unknown })?.id;
      this.onerror?.(new Error(`invalid JSON-RPC message: ${(e as Error).message.split('\n')[0]}`));
      this.reply(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        INVALID_REQUEST,
        'Invalid Request: not a JSON-RPC 2.0 message',
      );
      return;
    }
    const m = msg as { id?: Id; method?: unknown; params?: { requestId?: Id } };
    if (m.id !== undefined && typeof m.method === 'string') this.pending.add(m.id);
    this.onmessage?.(msg);
    // a cancelled request may legitimately never be answered
    if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) this.abandon(m.params.requestId);
  }

  private reply(id: Id | null, code: number, message: string): void {
    if (this.closed) return;
    this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private onend = (): void => {
    if (this.inputEnded) return;
    this.inputEnded = true;
    if (this.onInputEnd) this.onInputEnd();
    else void this.close();
  };
  private onstdinerror = (e: Error): void => {
    this.onerror?.(e);
  };
  private onstdouterror = (e: Error): void => {
    if (this.closed) return;
    this.onerror?.(e);
    void this.close();
  };

  async start(): Promise<void> {
    if (this.started) throw new Error('LeanStdioTransport already started');
    this.started = true;
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onend);
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onstdinerror);
    this.stdin.on('end', this.onend);
    this.stdin.on('close', this.onend);
    this.stdout.on('error', this.onstdouterror);
  }

  /** Requests handed on that have not been answered yet. */
  inFlight(): number {
    return this.pending.size;
  }

  /** A request that will never be answered (e.g. dropped by the fixture's fault gate). */
  abandon(id: Id): void {
    this.pending.delete(id);
    this.wake();
  }

  /** Resolves once every request handed on has been answered (or abandoned), or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  private wake(): void {
    if (this.pending.size > 0) return;
    for (const w of this.waiters.splice(0)) w();
  }

  private write(message: unknown): void {
    if (!this.corked) {
      this.corked = true;
      this.stdout.cork();
      process.nextTick(() => {
        this.corked = false;
        this.stdout.uncork();
      });
    }
    this.stdout.write(`${JSON.stringify(message)}\n`);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('stdio transport is closed'));
    this.write(message);
    const m = message as { id?: Id; method?: unknown };
    if (m.id !== undefined && m.method === undefined && this.pending.delete(m.id)) this.wake();
    return Promise.resolve();
  }

  /** Resolves once everything written so far has been handed to the OS (call before process.exit). */
  flushed(): Promise<void> {
    if (this.corked) {
      this.corked = false;
      this.stdout.uncork();
    }
    return new Promise((resolve) => this.stdout.write('', () => resolve()));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.corked) {
      this.corked = false;
      this.stdout.uncork();
    }
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onstdinerror);
    this.stdin.off('end', this.onend);
    this.stdin.off('close', this.onend);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.pending.clear();
    this.wake();
    this.onclose?.();
  }
}

/**
 * Tell a transport (or the wrappers around one) that request `id` will never be answered, so a
 * stdio transport flushing at EOF does not wait for it. Wrappers forward it with their own abandon().
 */
export function abandonRequest(transport: unknown, id: string | number): void {
  (transport as { abandon?: (id: string | number) => void }).abandon?.(id);
}
