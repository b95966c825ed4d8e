/**
 * Per-process log files the harness writes: every line redacted (util/redact.ts) before it is
 * written, and the file bounded. The first `headBytes` go straight to the file; past that only the
 * last `tailBytes` are kept in memory and written at `close()` after one line that says how much
 * was cut. A process that floods its output is then a finding with a bounded log, not a full disk.
 */
import { closeSync, openSync, readSync, statSync, writeSync, ftruncateSync, readFileSync, writeFileSync } from 'node:fs';
import { redactText } from './redact.ts';

/** Default cap of one process log: 4 MiB (head 2 MiB + tail 2 MiB). */
export const DEFAULT_LOG_CAP_BYTES = 4 * 1024 * 1024;

export interface LogCut {
  /** bytes written to the file (head + tail + the cut line) */
  kept_bytes: number;
  /** bytes of output dropped between head and tail */
  cut_bytes: number;
  cap_bytes: number;
}

export function cutLine(cut: number, cap: number): string {
  return `\n[mcpgauge: ${cut} bytes of output cut here (log cap ${cap} bytes: head and tail kept)]\n`;
}

export class CappedLog {
  private fd: number | null;
  private written = 0;
  private pending = '';
  private tail: string[] = [];
  private tailLen = 0;
  private cut = 0;
  private readonly head: number;
  private readonly tailCap: number;

  constructor(
    readonly path: string,
    readonly capBytes: number = DEFAULT_LOG_CAP_BYTES,
    private readonly secrets: readonly string[] = [],
  ) {
    this.fd = openSync(path, 'a');
    this.written = statSync(path).size;
    this.head = Math.floor(capBytes / 2);
    this.tailCap = capBytes - this.head;
  }

  /**
   * Append output. In the head, complete lines are redacted and written (a partial line waits, up
   * to 64 KiB); past the head the raw text only feeds the bounded tail, redacted at close().
   */
  write(chunk: string): void {
    if (this.fd === null) return;
    if (this.written >= this.head) {
      this.keepTail(chunk);
      return;
    }
    this.pending += chunk;
    const nl = this.pending.lastIndexOf('\n');
    if (nl < 0 && this.pending.length < 65536) return;
    const upto = nl < 0 ? this.pending.length : nl + 1;
    const text = this.pending.slice(0, upto);
    this.pending = this.pending.slice(upto);
    this.emitHead(redactText(text, this.secrets));
  }

  private emitHead(text: string): void {
    const room = this.head - this.written;
    const buf = Buffer.from(text, 'utf8');
    if (buf.length <= room) {
      writeSync(this.fd!, buf);
      this.written += buf.length;
      return;
    }
    // cut at the last line end that fits, so no line (and no secret) is split
    let at = buf.lastIndexOf(10, room - 1) + 1;
    if (at <= 0) at = room;
    writeSync(this.fd!, buf.subarray(0, at));
    this.written = this.head;
    this.keepTail(buf.subarray(at).toString('utf8'));
  }

  private keepTail(text: string): void {
    if (this.pending) {
      text = this.pending + text;
      this.pending = '';
    }
    this.tail.push(text);
    this.tailLen += text.length;
    while (this.tailLen > this.tailCap && this.tail.length > 1) {
      const first = this.tail.shift()!;
      this.tailLen -= first.length;
      this.cut += first.length;
    }
    if (this.tailLen > this.tailCap) {
      const over = this.tailLen - this.tailCap;
      this.tail[0] = this.tail[0].slice(over);
      this.tailLen -= over;
      this.cut += over;
    }
  }

  /** What was cut so far (null while nothing was). */
  cutInfo(): LogCut | null {
    return this.cut > 0 ? { kept_bytes: this.written + this.tailLen, cut_bytes: this.cut, cap_bytes: this.capBytes } : null;
  }

  /** Flush the partial line and the kept tail (after the cut line); further writes are dropped. */
  close(): LogCut | null {
    if (this.fd === null) return this.cutInfo();
    if (this.pending && this.written < this.head) this.emitHead(redactText(this.pending, this.secrets));
    else if (this.pending) this.keepTail('');
    this.pending = '';
    let tail = this.tail.join('');
    if (this.cut > 0) {
      // the kept tail starts at a line start: a secret cut in half is not left as a fragment
      const nl = tail.indexOf('\n');
      if (nl >= 0 && nl < tail.length - 1) {
        this.cut += nl + 1;
        tail = tail.slice(nl + 1);
      }
      writeSync(this.fd, cutLine(this.cut, this.capBytes));
    }
    if (tail) writeSync(this.fd, redactText(tail, this.secrets));
    this.tail = [];
    this.tailLen = Buffer.byteLength(tail);
    const info = this.cutInfo();
    closeSync(this.fd);
    this.fd = null;
    return info;
  }
}

/**
 * Bound and scrub a log file another process wrote (e.g. a fixture's stderr redirected by a shell):
 * larger than `capBytes`, the middle is replaced by the cut line; every line is redacted.
 * Returns the cut, or null when nothing was cut.
 */
export function capAndScrubFile(path: string, capBytes: number = DEFAULT_LOG_CAP_BYTES, secrets: readonly string[] = []): LogCut | null {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return null;
  }
  if (size <= capBytes) {
    const text = readFileSync(path, 'utf8');
    const clean = redactText(text, secrets);
    if (clean !== text) writeFileSync(path, clean);
    return null;
  }
  const half = Math.floor(capBytes / 2);
  const fd = openSync(path, 'r+');
  try {
    const head = Buffer.alloc(half);
    const tail = Buffer.alloc(capBytes - half);
    readSync(fd, head, 0, head.length, 0);
    readSync(fd, tail, 0, tail.length, size - tail.length);
    const cut = size - head.length - tail.length;
    const text = redactText(head.toString('utf8'), secrets) + cutLine(cut, capBytes) + redactText(tail.toString('utf8'), secrets);
    ftruncateSync(fd, 0);
    writeSync(fd, text, 0);
    return { kept_bytes: Buffer.byteLength(text), cut_bytes: cut, cap_bytes: capBytes };
  } finally {
    closeSync(fd);
  }
}
