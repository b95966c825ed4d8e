/**
 * progress: a `slow` call that outlives the proxy's call timeout while the fixture sends progress
 * every second. Rule (2025-11-25 basic/utilities/progress, basic/lifecycle#timeouts; our summary:
 * progress goes to the requester under the token it chose; a receiver MAY restart its timeout on
 * progress but SHOULD still enforce a maximum): at least 2 progress notifications reach the client
 * with the client's own progressToken, their values increasing; the call either completes (the
 * proxy restarts its timeout on progress) or ends in an error no earlier than the call timeout;
 * then a second such call, cancelled by the client after its first progress, is cancelled upstream
 * (the fixture logs `slow: cancelled by the client` within cancel_ms).
 */
import { readFileSync, statSync } from 'node:fs';
import { describeOutcome, mainSession, nonce, outcomeOf, sleep } from '../calls.ts';
import { upstreamName } from '../cell-fixtures.ts';
import type { StepDef } from '../types.ts';

const EVERY_MS = 1000;
const MIN_PROGRESS = 2;
type Seen = { token: unknown; progress: number; at: number };

function logSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
function linesSince(file: string, offset: number, re: RegExp): string[] {
  try {
    return readFileSync(file).subarray(offset).toString('utf8').split('\n').filter((l) => re.test(l));
  } catch {
    return [];
  }
}

export const step: StepDef = {
  meta: { name: 'progress', title: 'progress of a long call reaches the client; its cancel reaches the upstream' },
  async run(ctx) {
    const s = mainSession(ctx);
    const t = ctx.cfg.timeouts;
    const slow = `${upstreamName('main')}:slow`;
    await s.resolve(slow);
    const seen: Seen[] = [];
    // the gate chooses its own token, so a notification under any other token shows as such
    (s.conn.client as any).setNotificationHandler('notifications/progress', (n: any) => {
      seen.push({ token: n.params?.progressToken, progress: Number(n.params?.progress), at: Date.now() });
    });
    const token = nonce('progress');
    const ms = t.proxy_call_timeout_ms + 3 * EVERY_MS;
    const deadline = ms + t.hang_margin_ms;
    const ac = new AbortController();
    const started = Date.now();
    const o = await outcomeOf(s.call(slow, { ms, progress_ms: EVERY_MS }, { meta: { progressToken: token }, timeoutMs: deadline + 10_000, signal: ac.signal }), deadline);
    if (o.kind === 'no_answer' || o.kind === 'transport_error') ac.abort();
    const mine = seen.filter((x) => x.token === token);
    const stray = seen.filter((x) => x.token !== token).map((x) => x.token);
    const values = mine.map((x) => x.progress);
    const evidence: Record<string, unknown> = { token, progress_received: mine.length, progress_values: values, other_tokens: stray.slice(0, 5), outcome: o.kind, ms: Math.round(o.ms), call_ms: ms, proxy_call_timeout_ms: t.proxy_call_timeout_ms };
    if (mine.length < MIN_PROGRESS) {
      return { status: 'fail', reason: `${mine.length} progress notification(s) reached the client with its progressToken during a ${ms} ms call that sent one every ${EVERY_MS} ms (expected at least ${MIN_PROGRESS}${stray.length ? `; ${stray.length} came under another token` : ''})`, evidence };
    }
    if (values.some((v, i) => i > 0 && !(v > values[i - 1]))) return { status: 'fail', reason: `the progress values the client received do not increase: ${values.join(', ')}`, evidence };
    if (o.kind === 'ok') {
      // completed: fine (the proxy restarted its timeout on progress)
    } else if (o.kind === 'tool_error' || o.kind === 'rpc_error') {
      if (o.ms < t.proxy_call_timeout_ms - 200) return { status: 'fail', reason: `the call failed after ${Math.round(o.ms)} ms, before the ${t.proxy_call_timeout_ms} ms call timeout: ${describeOutcome(o)}`, evidence };
    } else {
      return { status: 'fail', reason: `the call neither completed nor ended in an error within ${deadline} ms: ${describeOutcome(o)}`, evidence };
    }
    // a second call, cancelled by the client after its first progress
    const log = ctx.fixtures.roles.main.log;
    const mark = logSize(log);
    const token2 = nonce('progress');
    const ac2 = new AbortController();
    const c2 = s.call(slow, { ms: 60_000, progress_ms: EVERY_MS }, { meta: { progressToken: token2 }, timeoutMs: 70_000, signal: ac2.signal });
    c2.catch(() => {});
    const until = Date.now() + t.step_ms;
    while (!seen.some((x) => x.token === token2) && Date.now() < until) await sleep(50);
    ac2.abort('cancelled by the gate');
    const t0 = Date.now();
    let lines: string[] = [];
    while (Date.now() - t0 < t.cancel_ms + 1000) {
      lines = linesSince(log, mark, /slow: cancelled by the client/);
      if (lines.length) break;
      await sleep(100);
    }
    evidence.fixture_lines = [...linesSince(log, mark, /slow: progress/).slice(0, 3), ...lines];
    evidence.since_call_ms = Date.now() - started;
    if (!lines.length) return { status: 'fail', reason: `the client's cancellation of a call that reports progress did not reach the upstream: the fixture logged no cancellation within ${t.cancel_ms} ms`, evidence };
    const fate = o.kind === 'ok' ? 'completed (the proxy restarted its call timeout on progress)' : `ended in an error after ${Math.round(o.ms)} ms, no earlier than the ${t.proxy_call_timeout_ms} ms call timeout`;
    return { status: 'pass', reason: `${mine.length} progress notification(s) reached the client with its token (${values.join(', ')}); the ${ms} ms call ${fate}; a cancel mid-call reached the upstream after ${Date.now() - t0} ms`, evidence };
  },
};
