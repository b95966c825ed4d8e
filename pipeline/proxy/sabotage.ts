/**
 * Test-only sabotage switches of the reference proxy, so the release gate's tests can prove that
 * each gate step goes red on the bug it exists to catch. Read from the environment variable
 * MCPGAUGE_PROXY_SABOTAGE (comma-separated); deliberately absent from --help and the README's
 * option table. An unknown switch is an error (a typo must not silently test nothing).
 *
 *   drop-meta       the caller's _meta is not forwarded to the upstream, nor the upstream's back
 *   serialize       one upstream call at a time across the whole proxy
 *   no-timeout      call_timeout_ms is ignored (a hung upstream call hangs the caller)
 *   swallow-cancel  a client's notifications/cancelled is not forwarded upstream
 *   drop-progress   a caller's progress token is not answered: no progress is asked of the upstream,
 *                   none reaches the caller (and none restarts the call timeout)
 *   progress-no-cancel  a call that carries a progress token is not cancelled upstream when the
 *                   caller cancels it (the other calls are)
 *   progress-no-restart  progress still reaches the caller but no longer restarts the call timeout
 *                   (as npm mcp-proxy does; allowed by the spec, so alone it turns nothing red)
 *   manual-restart  a lost upstream is only reconnected by an upstream_servers restart request
 *   no-reconnect    a lost upstream is never reconnected, not even on request
 *   flaky-meta      every third call that carries a caller _meta (keys besides progressToken and
 *                   the protocol's reserved io.modelcontextprotocol/ ones) loses it both ways, as
 *                   drop-meta does; counted per process, or across processes in the file named by
 *                   MCPGAUGE_PROXY_SABOTAGE_STATE when set (so `gate --repeat 3`, a fresh proxy per
 *                   run, meets it in exactly one run: pass it with --pass-env)
 *   net-no-deadline  the call deadline is not applied to upstreams reached over HTTP (streamable
 *                   HTTP or SSE): the proxy leaves it to its HTTP client, so a half-open peer or a
 *                   link slower than the timeout hangs the caller (the network cells' steps go red;
 *                   stdio upstreams keep their deadline)
 *   stale-index     the index keeps each upstream's tool list of its connection's start:
 *                   list_changed is ignored, no subscriptions/listen is opened, ttlMs is not
 *                   honoured and a changed list seen by the health check is dropped
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { UserError } from '../types.ts';

export const SABOTAGE_ENV = 'MCPGAUGE_PROXY_SABOTAGE';
export const SABOTAGE_SWITCHES = [
  'drop-meta',
  'serialize',
  'no-timeout',
  'swallow-cancel',
  'drop-progress',
  'progress-no-cancel',
  'progress-no-restart',
  'manual-restart',
  'no-reconnect',
  'flaky-meta',
  'net-no-deadline',
  'stale-index',
] as const;
export const SABOTAGE_STATE_ENV = 'MCPGAUGE_PROXY_SABOTAGE_STATE';
export type SabotageSwitch = (typeof SABOTAGE_SWITCHES)[number];

export function readSabotage(env: NodeJS.ProcessEnv = process.env): ReadonlySet<SabotageSwitch> {
  const raw = env[SABOTAGE_ENV];
  if (raw === undefined || raw.trim() === '') return new Set();
  const out = new Set<SabotageSwitch>();
  for (const s of raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    if (!(SABOTAGE_SWITCHES as readonly string[]).includes(s)) {
      throw new UserError(`${SABOTAGE_ENV}: unknown switch ${JSON.stringify(s)} (valid: ${SABOTAGE_SWITCHES.join(', ')})`);
    }
    out.add(s as SabotageSwitch);
  }
  return out;
}

let calls = 0;

/**
 * `flaky-meta`: true on the 3rd, 6th, 9th … counted call. The count lives in this process, or in
 * the file MCPGAUGE_PROXY_SABOTAGE_STATE names (read, incremented and written synchronously: the
 * gate's repeated runs are sequential). Deterministic, so a test knows which run meets it.
 */
export function everyThirdCall(env: NodeJS.ProcessEnv = process.env): boolean {
  const file = env[SABOTAGE_STATE_ENV];
  if (!file) return ++calls % 3 === 0;
  let n = 0;
  try {
    n = Number.parseInt(readFileSync(file, 'utf8'), 10) || 0;
  } catch {
    n = 0;
  }
  n++;
  writeFileSync(file, String(n));
  return n % 3 === 0;
}
