/**
 * Open TCP connections towards a loopback port, read from /proc/net/tcp and /proc/net/tcp6 (Linux;
 * null elsewhere): the client side of every established connection whose peer is 127.0.0.1:port.
 * Each network cell's toxiproxy link has its own port, and only the proxy under test connects to
 * it, so the count is that proxy's connections to its (faulty) upstream.
 */
import { readFileSync } from 'node:fs';

const ESTABLISHED = '01';

export function connectionsTo(port: number): number | null {
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
      if (cols.length < 4 || cols[3] !== ESTABLISHED) continue;
      const remote = cols[2];
      const p = Number.parseInt(remote.slice(remote.lastIndexOf(':') + 1), 16);
      const host = remote.slice(0, remote.lastIndexOf(':'));
      // IPv4 127.0.0.1 is 0100007F; the IPv4-mapped IPv6 form ends with it
      if (p === port && (host === '0100007F' || host.endsWith('FFFF0000' + '0100007F'))) n++;
    }
  }
  return read ? n : null;
}
