/** Reading a stdio server's exit from the evidence (a leaf module: judge and run import it). */
import { replyOf } from './reply.ts';
import type { Evidence } from './types.ts';

/** The server answered the handshake and then exited before answering any other request. */
export function exitedAfterHandshake(ev: Evidence): boolean {
  if (!ev.exit || ev.wire !== 'stdio') return false;
  const h = ev.exchanges.find((e) => e.probe === 'handshake');
  if (!replyOf(h)) return false;
  const later = ev.exchanges.filter((e) => e !== h && e.request.id !== null && !e.probe.endsWith('#sentinel'));
  return later.length > 0 && later.every((e) => !e.response);
}
