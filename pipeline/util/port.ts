/**
 * Ports a command is asked to listen on, checked before any work starts (the exit-code contract:
 * a bad or taken port is "could not run as asked", exit 2, one line naming the flag and the port).
 * No dependency beyond node:net, so a CLI can check a port without loading a server.
 */
import { createServer } from 'node:net';
import { UserError } from '../types.ts';

/** "127.0.0.1:8080", "[::1]:8080" */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/** The one-line reason a listen on host:port failed ("port 127.0.0.1:8080 is in use", ...). */
export function listenProblem(host: string, port: number, e: NodeJS.ErrnoException): string {
  const where = hostPort(host, port);
  if (e.code === 'EADDRINUSE') return `port ${where} is in use`;
  if (e.code === 'EACCES') return `port ${where}: permission denied (EACCES; ports below 1024 need privileges)`;
  if (e.code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: ${host} is not an address of this machine (EADDRNOTAVAIL)`;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN')
    return `cannot listen on ${where}: host ${JSON.stringify(host)} does not resolve (${e.code})`;
  return `cannot listen on ${where}: ${e.code ?? e.message}`;
}

/**
 * Parses a port flag or env value: an integer 0..65535 (0 = any free port). `flag` names the
 * flag or variable in the one-line UserError (exit 2).
 */
export function parsePort(raw: string, flag: string): number {
  const s = String(raw).trim();
  if (!/^\d+$/.test(s) || Number(s) > 65535)
    throw new UserError(`${flag} must be an integer in 0..65535 (0 = any free port), got ${JSON.stringify(raw)}`, 2);
  return Number(s);
}

/**
 * Checks that host:port can be listened on now, by binding and closing it (port 0: a free port,
 * which still checks the host). Throws a one-line UserError (exit 2) naming `flag` and the
 * address: "--port: port 127.0.0.1:8080 is in use" (`hostFlag` when the host is the problem:
 * not an address of this machine, does not resolve). The real listen can still lose a race; it
 * reports the same line.
 */
export async function assertPortFree(host: string, port: number, flag: string, hostFlag = flag): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    const hostProblem = (code?: string) => code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
    probe.once('error', (e: NodeJS.ErrnoException) =>
      reject(new UserError(`${hostProblem(e.code) ? hostFlag : flag}: ${listenProblem(host, port, e)}`, 2)),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
