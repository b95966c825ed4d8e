/**
 * stdio wire: spawns the server, writes newline-delimited bytes (raw when a probe needs
 * malformed input), reads stdout as bytes with a bounded line buffer (an endless line or a
 * 50 MB answer is cut at MAX_RESPONSE_BYTES, never held whole), decodes UTF-8 strictly, and
 * attributes each line to the request whose id it carries. Non-protocol lines are noise.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { holdGroup, signalGroup, spawnGroup, stopChild } from '../../util/proc.ts';
import type { Exchange } from '../types.ts';
import { MAX_RESPONSE_BYTES, clip, idKey, isResponse, type Wire, type WireRequest } from './types.ts';

export interface StdioTarget {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

interface Pending {
  resolve(ex: Exchange): void;
  ex: Exchange;
  timer: NodeJS.Timeout;
}

const NOISE_CAP = 20;
/** unsolicited notifications past this count are named as a flood */
export const FLOOD_NOTIFICATIONS = 2000;
/** the last noise entry when more lines were seen than kept */
export const NOISE_MORE = '… and ';
const STDERR_TAIL = 4096;
/** how much of a multi-line message is held to read it whole (StdioWire.unframedLine) */
const UNFRAMED_MAX_BYTES = 1 << 20;
const UNFRAMED_TRIES = 8;
/** the partial-line probe's longest pause between its two writes (StdioWire.untilRead) */
const SPLIT_MS = 100;

/** Bytes the process has read so far (rchar of /proc/<pid>/io), or null where that is not readable. */
function bytesRead(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const m = /^rchar:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export class StdioWire implements Wire {
  readonly kind = 'stdio' as const;
  private child: ChildProcess;
  private pending = new Map<string, Pending>();
  private idless: Pending | null = null;
  /** the id an idless window also accepts (a raw request whose id is readable) */
  private idlessKey: string | null = null;
  private chunks: Buffer[] = [];
  private chunkBytes = 0;
  private skipping = false;
  private noise: string[] = [];
  private noiseCount = 0;
  private unattributed: unknown[] = [];
  /** the lines of a message written over several lines, held since its opening `{` or `[` line */
  private unframed: string[] | null = null;
  private unframedBytes = 0;
  private unframedTries = 0;
  /** root causes seen on the wire, in order (mismatched ids, echoes, a flood) */
  private anomalies: string[] = [];
  private notifications = 0;
  private notificationMethods = new Map<string, number>();
  private firstNotificationAt = 0;
  /** the method of each pending request, by id key (to recognise an echoed request) */
  private sentMethod = new Map<string, string>();
  /** every id sent so far, as text (a late answer to a timed-out request is not a mismatch) */
  private sentIds = new Set<string>();
  /** answers paired on their exact id */
  private paired = 0;
  private stderr = '';
  private exit?: { code: number | null; signal: string | null; afterProbe: string };
  private lastProbe = '(start)';
  /** writes queued behind a split request (written in order), and the chain of them */
  private queued = 0;
  private writing: Promise<void> = Promise.resolve();
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly t0: number;
  private readonly spawnError: Promise<Error | null>;

  constructor(
    readonly target: StdioTarget,
    private readonly defaultTimeoutMs: number,
    t0 = Date.now(),
  ) {
    this.t0 = t0;
    // its own process group (a server started through npx or a shell wrapper has children of its
    // own): ended as a whole on close, on the exit of this process and on Ctrl-C (holdGroup)
    this.child = spawnGroup(target.command, target.args, {
      cwd: target.cwd,
      env: target.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      label: 'comply target',
    });
    const release = holdGroup(this.child);
    this.child.once('close', () => {
      release();
      // whatever the server left in its group when it exited
      signalGroup(this.child, 'SIGKILL');
    });
    this.spawnError = new Promise((resolve) => {
      this.child.once('error', (e) => resolve(e));
      this.child.once('spawn', () => resolve(null));
    });
    this.child.stdout!.on('data', (d: Buffer) => this.onData(d));
    this.child.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString('utf8')).slice(-STDERR_TAIL);
    });
    this.child.stdin!.on('error', () => {});
    this.child.once('exit', (code, signal) => {
      this.exit = { code, signal, afterProbe: this.lastProbe };
      // let the last stdout bytes arrive before failing what is still waiting; unref'd: a request
      // still waiting keeps the process alive with its own timer, and a server stopped at the end
      // of the run no longer holds comply's exit for these 30 ms
      setTimeout(
        () => this.failAll('died', `server exited (code ${code}${signal ? `, signal ${signal}` : ''}) after probe ${this.lastProbe}`),
        30,
      ).unref();
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private failAll(kind: 'died', detail: string): void {
    for (const [k, p] of this.pending) {
      clearTimeout(p.timer);
      p.ex.error = { kind, detail };
      this.pending.delete(k);
      p.resolve(p.ex);
    }
    if (this.idless) {
      const p = this.idless;
      this.idless = null;
      clearTimeout(p.timer);
      p.ex.error = { kind, detail };
      p.resolve(p.ex);
    }
  }

  private addNoise(s: string): void {
    this.noiseCount++;
    if (this.noise.length < NOISE_CAP) this.noise.push(clip(s, 200));
  }

  private onData(d: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = d.indexOf(0x0a, start);
      if (nl < 0) break;
      const piece = d.subarray(start, nl);
      start = nl + 1;
      if (this.skipping) {
        this.skipping = false;
        this.chunks = [];
        this.chunkBytes = 0;
        continue;
      }
      const line = this.chunks.length ? Buffer.concat([...this.chunks, piece]) : piece;
      this.chunks = [];
      this.chunkBytes = 0;
      this.onLine(line);
    }
    if (start < d.length && !this.skipping) {
      const rest = d.subarray(start);
      this.chunks.push(Buffer.from(rest));
      this.chunkBytes += rest.length;
      if (this.chunkBytes > MAX_RESPONSE_BYTES) {
        this.addNoise(`a stdout line longer than ${MAX_RESPONSE_BYTES} bytes (dropped unread)`);
        this.chunks = [];
        this.chunkBytes = 0;
        this.skipping = true;
        this.failOversized();
      }
    }
  }

  /** An oversized line answers nothing we can read: the waiting requests get too_large. */
  private failOversized(): void {
    for (const [k, p] of this.pending) {
      clearTimeout(p.timer);
      p.ex.error = { kind: 'too_large', detail: `a stdout line exceeded ${MAX_RESPONSE_BYTES} bytes and was dropped` };
      this.pending.delete(k);
      p.resolve(p.ex);
    }
  }

  private onLine(buf: Buffer): void {
    let text: string;
    try {
      text = this.decoder.decode(buf);
    } catch {
      this.addNoise(`invalid UTF-8 on stdout (${buf.length} bytes)`);
      return;
    }
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (!line.trim()) return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      this.addNoise(line);
      this.unframedLine(line);
      return;
    }
    if (Array.isArray(msg) && this.idless) {
      // a batch answer: attributed to the raw write that sent the batch
      this.record(this.idless.ex, line, msg);
      return;
    }
    if (typeof msg !== 'object' || msg === null || (msg as { jsonrpc?: unknown }).jsonrpc === undefined) {
      // a line of a pretty-printed message can be JSON on its own ("2026-07-28", {})
      this.addNoise(line);
      this.unframedLine(line);
      return;
    }
    this.unframed = null;
    if (isResponse(msg)) {
      const id = (msg as { id?: unknown }).id;
      const p = id === undefined || id === null ? null : this.pending.get(idKey(id));
      if (p) {
        this.pending.delete(idKey(id));
        clearTimeout(p.timer);
        this.paired++;
        this.record(p.ex, line, msg);
        p.resolve(p.ex);
        return;
      }
      if (this.idless && (id === undefined || id === null || idKey(id) === this.idlessKey)) {
        this.record(this.idless.ex, line, msg);
        return;
      }
      if (id !== undefined && id !== null && this.mismatched(id, line, msg)) return;
    } else if (this.echoed(msg as { id?: unknown; method?: unknown })) return;
    else if (typeof (msg as { method?: unknown }).method === 'string' && (msg as { id?: unknown }).id === undefined)
      this.countNotification((msg as { method: string }).method);
    this.unattributed.push(msg);
    if (this.unattributed.length > 200) this.unattributed.shift();
  }

  /**
   * A message written over several lines (pretty-printed): none of its lines is a message, so each
   * is noise (stdio-framing judges that). The lines from an opening `{` or `[` on are held (up to
   * 1 MB), and when a closing line makes them one JSON-RPC answer to a waiting request, that request ends now
   * as unframed, unread, as it would after the timeout, instead of waiting the timeout out.
   */
  private unframedLine(line: string): void {
    if (this.unframed === null) {
      const t = line.trimStart();
      if (t[0] !== '{' && t[0] !== '[') return;
      this.unframed = [];
      this.unframedBytes = 0;
      this.unframedTries = 0;
    }
    this.unframed.push(line);
    this.unframedBytes += line.length + 1;
    if (this.unframedBytes > UNFRAMED_MAX_BYTES) {
      this.unframed = null;
      return;
    }
    // a pretty printer closes the message at the start of a line; a few tries per held message,
    // so a hostile stream of closing lines costs a few parses, not one per line
    if (line[0] !== '}' && line[0] !== ']') return;
    if (++this.unframedTries > UNFRAMED_TRIES) {
      this.unframed = null;
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(this.unframed.join('\n'));
    } catch {
      return;
    }
    const lines = this.unframed.length;
    this.unframed = null;
    if (!isResponse(msg)) return;
    const id = (msg as { id?: unknown }).id;
    if (id === undefined || id === null || !this.pending.has(idKey(id))) return;
    this.note(`multi-line messages: the server writes a message over several lines (pretty-printed), so no stdio client can read it`);
    this.endWaiting(idKey(id), {
      kind: 'unframed',
      detail: `the answer came over ${lines} lines (a pretty-printed message), not as one line, so it is not read as an answer`,
    });
  }

  /** A waiting request ends now with `error` instead of an answer (and instead of its timeout). */
  private endWaiting(key: string, error: NonNullable<Exchange['error']>): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    clearTimeout(p.timer);
    p.ex.error = error;
    p.resolve(p.ex);
  }

  /**
   * A response whose id matches no request. Same value, other JSON type ("1000" for 1000): paired
   * with that request (so the run goes on) and named. No request at all with that value: the
   * waiting requests cannot be paired, so they end now with that reason instead of a timeout.
   */
  private mismatched(id: unknown, line: string, msg: unknown): boolean {
    const loose = [...this.pending.entries()].find(([k]) => String(JSON.parse(k)) === String(id));
    if (loose) {
      const [k, p] = loose;
      this.pending.delete(k);
      clearTimeout(p.timer);
      p.ex.idMismatch = { sent: p.ex.request.id, got: id };
      this.note(
        `mismatched response ids: the request with id ${k} (${typeof p.ex.request.id}) was answered with id ${JSON.stringify(id)} (${typeof id}); answers are paired by value, lifecycle-id-match fails`,
      );
      this.record(p.ex, line, msg);
      p.resolve(p.ex);
      return true;
    }
    if (this.sentIds.has(String(id))) return false; // a late or repeated answer to a request we sent
    if (!this.pending.size) return false;
    const waiting = [...this.pending.keys()];
    if (this.paired) {
      // answers were paired before: one stray id is named (lifecycle-id-match judges it), the rest goes on
      this.note(
        `mismatched response ids: an answer came back with id ${JSON.stringify(id)}, which no request carries (waiting: ${waiting.slice(0, 3).join(', ')})`,
      );
      return false;
    }
    this.note(
      `mismatched response ids: an answer came back with id ${JSON.stringify(id)}, which no request carries (waiting: ${waiting.slice(0, 3).join(', ')}); answers cannot be paired with requests`,
    );
    for (const [k, p] of this.pending) {
      clearTimeout(p.timer);
      p.ex.error = {
        kind: 'id_mismatch',
        detail: `an answer came back with id ${JSON.stringify(id)} instead of ${k}: response ids do not match the requests`,
      };
      this.pending.delete(k);
      p.resolve(p.ex);
    }
    this.unattributed.push(msg);
    return true;
  }

  /** The server wrote our request back (same id, same method): an echo, not an answer. */
  private echoed(msg: { id?: unknown; method?: unknown }): boolean {
    if (msg.id === undefined || msg.id === null || typeof msg.method !== 'string') return false;
    const k = idKey(msg.id);
    const p = this.pending.get(k);
    if (!p || this.sentMethod.get(k) !== msg.method) return false;
    this.pending.delete(k);
    clearTimeout(p.timer);
    p.ex.error = { kind: 'echoed', detail: `the server wrote the request back (method ${msg.method}, id ${k}) instead of answering it` };
    this.note(`echoed requests: the server writes each request back as it came (${msg.method}, id ${k}) instead of answering it`);
    p.resolve(p.ex);
    return true;
  }

  private countNotification(method: string): void {
    if (!this.notifications) this.firstNotificationAt = Date.now();
    this.notifications++;
    this.notificationMethods.set(method, (this.notificationMethods.get(method) ?? 0) + 1);
  }

  private note(s: string): void {
    if (!this.anomalies.some((a) => a.split(':')[0] === s.split(':')[0])) this.anomalies.push(s);
  }

  private record(ex: Exchange, line: string, msg: unknown): void {
    const r = (ex.response ??= { body: '', bodyBytes: 0, messages: [] });
    r.body += `${clip(line)}\n`;
    r.bodyBytes += Buffer.byteLength(line) + 1;
    r.messages.push(msg);
    ex.ms = Date.now() - this.t0 - ex.at;
  }

  async send(req: WireRequest): Promise<Exchange> {
    const spawnErr = await this.spawnError;
    const text = req.rawLine ? req.body : `${req.body}\n`;
    const ex: Exchange = {
      probe: req.probe,
      wire: 'stdio',
      at: Date.now() - this.t0,
      ms: 0,
      request: { body: clip(text), bodyBytes: Buffer.byteLength(text), id: req.id },
      response: null,
    };
    if (spawnErr) {
      ex.error = { kind: 'unreachable', detail: `cannot start ${this.target.command}: ${spawnErr.message}` };
      return ex;
    }
    if (this.exit) {
      ex.error = { kind: 'died', detail: `server already exited (code ${this.exit.code}) after probe ${this.exit.afterProbe}` };
      return ex;
    }
    this.lastProbe = req.probe;
    if (req.id !== null) this.sentIds.add(String(req.id));
    if (req.expect === 'reply' && req.id !== null) {
      try {
        const m = (JSON.parse(req.body) as { method?: unknown }).method;
        if (typeof m === 'string') this.sentMethod.set(idKey(req.id), m);
      } catch {
        /* raw bytes: no method */
      }
    }
    const timeoutMs = req.timeoutMs ?? this.defaultTimeoutMs;
    const done = new Promise<Exchange>((resolve) => {
      if (req.expect === 'none') return resolve(ex);
      const timer = setTimeout(() => {
        if (req.expect === 'reply') this.pending.delete(idKey(req.id));
        else if (this.idless?.ex === ex) this.idless = null;
        ex.ms = timeoutMs;
        if (req.expect === 'reply') ex.error = { kind: 'timeout', detail: `no answer within ${timeoutMs} ms` };
        resolve(ex);
      }, timeoutMs);
      const p: Pending = { resolve, ex, timer };
      if (req.expect === 'reply') this.pending.set(idKey(req.id), p);
      else {
        this.idless = p;
        this.idlessKey = req.id === null ? null : idKey(req.id);
      }
    });
    const split = req.split === true && text.length > 1;
    if (!split && this.queued === 0) this.child.stdin!.write(text);
    else {
      // a split request's two chunks are one write as far as later requests go: those queue behind it
      this.queued++;
      const w = this.writing
        .then(async () => {
          if (!split) {
            this.child.stdin!.write(text);
            return;
          }
          const half = Math.floor(text.length / 2);
          const before = bytesRead(this.child.pid);
          this.child.stdin!.write(text.slice(0, half));
          await this.untilRead(before, Buffer.byteLength(text.slice(0, half)));
          if (!this.exit) this.child.stdin!.write(text.slice(half));
        })
        .finally(() => this.queued--);
      this.writing = w;
      await w;
    }
    return done;
  }

  /**
   * Ends a waiting request as unanswered now, with `detail` (gather.ts splitWithSentinel: a
   * request sent after it was answered, and answers come in the order the requests were read).
   */
  giveUp(id: string | number, detail: string): void {
    const p = this.pending.get(idKey(id));
    if (p) p.ex.ms = Date.now() - this.t0 - p.ex.at;
    this.endWaiting(idKey(id), { kind: 'timeout', detail });
  }

  /**
   * The partial-line probe's pause between its two writes: until the server has read the first
   * (its read count in /proc/<pid>/io has grown by that many bytes), so the two arrive as two
   * reads; at most SPLIT_MS, all of it where the count cannot be read (not Linux, or a wrapper
   * such as npx or docker between us and the reading process).
   */
  private async untilRead(before: number | null, bytes: number): Promise<void> {
    const start = Date.now();
    while (Date.now() - start < SPLIT_MS && !this.exit) {
      await new Promise((r) => setTimeout(r, 2));
      const now = before === null ? null : bytesRead(this.child.pid);
      if (now !== null && now - before! >= bytes) return;
    }
  }

  /** Ends the open idless collection window (its sentinel request was answered). */
  closeIdless(): void {
    if (!this.idless) return;
    const p = this.idless;
    this.idless = null;
    clearTimeout(p.timer);
    p.resolve(p.ex);
  }

  state() {
    const noise = [...this.noise];
    if (this.noiseCount > this.noise.length) noise.push(`${NOISE_MORE}${this.noiseCount - this.noise.length} more non-protocol lines`);
    const anomalies = [...this.anomalies];
    if (this.notifications > FLOOD_NOTIFICATIONS) {
      const top = [...this.notificationMethods.entries()].sort((a, b) => b[1] - a[1])[0];
      anomalies.push(
        `notification flood: the server wrote ${this.notifications} notifications nobody asked for in ${((Date.now() - this.firstNotificationAt) / 1000).toFixed(1)} s (most: ${top[0]} x${top[1]})`,
      );
    }
    return { noise, unattributed: [...this.unattributed], stderrTail: this.stderr, exit: this.exit, anomalies };
  }

  /**
   * Spec shutdown order: close stdin, wait, SIGTERM to the group, wait, SIGKILL (util/proc.ts
   * stopChild). The first wait is 20 ms (50 until 2026-12-06): a server that ends on end of input
   * when idle does so in about that (the four npm reference servers: 12-21 ms); one still busy
   * with the run's probes (server-everything: 155-183 ms) gets the spec's next step, SIGTERM,
   * instead of holding the run (nothing of the shutdown is graded). Against server-everything the
   * whole comply run took 30 ms less.
   */
  async close(): Promise<void> {
    if (this.exit || this.child.exitCode !== null) return;
    await stopChild(this.child, { stdinGraceMs: 20, graceMs: 1000 });
  }
}
