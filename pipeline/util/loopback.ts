/** Loopback addresses, with no dependency (util/http.ts re-exports it; comply imports it from here, without the SDK server). */
import { isIP } from 'node:net';

/**
 * True when `host` (a bind address or Host name, IPv6 with or without brackets) is loopback:
 * `localhost`, any address of 127.0.0.0/8, `::1` (any spelling), or an IPv4-mapped 127.x address.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  const kind = isIP(h);
  if (kind === 4) return h.split('.')[0] === '127';
  if (kind === 6) {
    // the URL parser canonicalizes IPv6 (0:0:0:0:0:0:0:1 -> ::1, ::ffff:127.0.0.1 -> ::ffff:7f00:1)
    const canon = new URL(`http://[${h}]/`).hostname.slice(1, -1);
    return canon === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(canon);
  }
  return false;
}
