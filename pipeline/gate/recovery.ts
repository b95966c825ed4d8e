/**
 * Recovery check shared by the crash and kill steps: poll the fixture's `ping` through the proxy
 * (never asking the proxy to restart anything) until a new process answers: a different
 * instance_id with its counter reset to 1.
 */
import { callJson, oneLine, sleep } from './calls.ts';
import type { ProxySession } from '../adapter/index.ts';

export interface Ping {
  instance_id: string;
  counter: number;
}

export async function ping(s: ProxySession, server: string, timeoutMs: number): Promise<Ping> {
  const j = await callJson(s, `${server}:ping`, {}, timeoutMs);
  if (typeof j?.instance_id !== 'string' || typeof j?.counter !== 'number')
    throw new Error(`ping answer is not {instance_id, counter}: ${oneLine(JSON.stringify(j))}`);
  return { instance_id: j.instance_id, counter: j.counter };
}

export interface Recovery {
  ok: boolean;
  reason: string;
  evidence: Record<string, unknown>;
}

export async function awaitNewInstance(
  s: ProxySession,
  server: string,
  old: string,
  recoveryMs: number,
  callMs: number,
): Promise<Recovery> {
  const t0 = Date.now();
  const deadline = t0 + recoveryMs;
  let polls = 0;
  let last = 'no ping answered yet';
  while (Date.now() < deadline) {
    polls++;
    try {
      const p = await ping(s, server, Math.max(500, Math.min(callMs, deadline - Date.now())));
      if (p.instance_id !== old) {
        const ev = { old_instance: old, new_instance: p.instance_id, counter: p.counter, polls, recovered_after_ms: Date.now() - t0 };
        if (p.counter !== 1)
          return {
            ok: false,
            reason: `a new instance answered but its counter is ${p.counter}, not 1 (pings reached it that the gate did not send?)`,
            evidence: ev,
          };
        return {
          ok: true,
          reason: `a new fixture process (instance ${p.instance_id}, counter 1) answered after ${ev.recovered_after_ms} ms and ${polls} poll(s), no restart requested`,
          evidence: ev,
        };
      }
      last = `still the old instance ${old}`;
    } catch (e) {
      last = oneLine((e as Error).message, 200);
    }
    await sleep(200);
  }
  return {
    ok: false,
    reason: `no reconnect within ${recoveryMs} ms without a restart request (the gate never asks for one); last ping: ${last}`,
    evidence: { old_instance: old, polls },
  };
}
