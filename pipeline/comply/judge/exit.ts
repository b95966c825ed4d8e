/** Reading a stdio server's exit from the evidence (a leaf module: judge and run import it). */
import { replyOf } from '../gather/reply.ts';
import type { Evidence } from '../types.ts';
import { heardNothing } from './check.ts';

/** The server answered the handshake and then exited before answering any other request. */
export function exitedAfterHandshake(ev: Evidence): boolean {
  if (!ev.exit || ev.wire !== 'stdio') return false;
  const h = ev.exchanges.find((e) => e.probe === 'handshake');
  if (!replyOf(h)) return false;
  const later = ev.exchanges.filter((e) => e !== h && e.request.id !== null && !e.probe.endsWith('#sentinel'));
  return later.length > 0 && later.every((e) => !e.response);
}

/** The server exited before it wrote anything to us: it never started serving (a crash at start, a bad command). */
export function exitedBeforeAnswering(ev: Pick<Evidence, 'exit' | 'exchanges' | 'noise'>): boolean {
  return ev.exit !== undefined && ev.exit !== null && heardNothing(ev);
}

/** Stack frames, runtime banners and bare punctuation: stderr lines that carry no cause. */
const NOISE_LINE = /^(at\s|node:internal\/|Node\.js v\d|triggerUncaughtException|[\^{}()[\],;]*$|throw err;?$)/;
const CAUSE_LINE =
  /error|cannot|can't|not found|no such|enoent|eacces|eaddrinuse|denied|exception|traceback|panic|fatal|failed|invalid|missing|unknown|refused|module/i;

/**
 * The stderr lines that carry the error (up to 3): lines naming an error first, stack frames and
 * runtime banners left out; the last meaningful lines when none names one.
 */
export function causeLines(stderr: string, max = 3): string[] {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !NOISE_LINE.test(l));
  const named = lines.filter((l) => CAUSE_LINE.test(l));
  return (named.length ? named : lines.slice(-max)).slice(0, max).map((l) => l.slice(0, 240));
}

/** One sentence: how the server ended before answering, with the stderr lines that say why. */
export function startFailure(ev: Pick<Evidence, 'exit' | 'stderrTail'>): string {
  const x = ev.exit!;
  const how = x.signal ? `was killed by ${x.signal}` : `exited with code ${x.code}`;
  const cause = causeLines(ev.stderrTail ?? '');
  return `the server ${how} before answering any request${cause.length ? `; its stderr: ${cause.join(' | ')}` : ' (nothing on stderr)'}`;
}
