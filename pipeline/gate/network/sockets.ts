/**
 * TCP sockets of a loopback port, read from /proc/net/tcp and /proc/net/tcp6 (Linux; null
 * elsewhere). Each network cell's toxiproxy link has its own port, and only the proxy under test
 * connects to it:
 * - `connectionsTo`: the client side of every established connection whose peer is 127.0.0.1:port,
 *   i.e. that proxy's connections to its (faulty) upstream;
 * - `heldClosedOn`: the server side (local 127.0.0.1:port) of every connection in CLOSE_WAIT, i.e.
 *   ones the proxy under test has closed and toxiproxy still holds open (a delayed close).
 */
import { readFileSync } from 'node:fs';

const ESTABLISHED = '01';
const CLOSE_WAIT = '08';

/** `0100007F:1F90` (IPv4 127.0.0.1, or its IPv4-mapped IPv6 form) at `port` */
function isLoopbackAt(addr: string, port: number): boolean {
  const i = addr.lastIndexOf(':');
  const host = addr.slice(0, i);
  return Number.parseInt(addr.slice(i + 1), 16) === port && (host === '0100007F' || host.endsWith('FFFF0000' + '0100007F'));
}

function countSockets(match: (local: string, remote: string, state: string) => boolean): number | null {
  let n = 0;
  let read = false;
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(f, 'latin1');
    } catch {
      continue;
    }
    read = true;
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length >= 4 && match(cols[1], cols[2], cols[3])) n++;
    }
  }
  return read ? n : null;
}

export function connectionsTo(port: number): number | null {
  return countSockets((_local, remote, state) => state === ESTABLISHED && isLoopbackAt(remote, port));
}

export function heldClosedOn(port: number): number | null {
  return countSockets((local, _remote, state) => state === CLOSE_WAIT && isLoopbackAt(local, port));
}
