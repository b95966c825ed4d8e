/**
 * progress: a `slow` call that outlives the proxy's call timeout while the fixture sends progress
 * every second. Rule (the same in both revisions: 2025-11-25 basic/utilities/progress,
 * basic/lifecycle#timeouts; 2026-07-28 basic/patterns/progress, basic/patterns/cancellation#timeouts;
 * our summary: progress goes to the requester under the token it chose, its value increasing; a
 * receiver MAY restart its timeout on progress but SHOULD still enforce a maximum): at least 2
 * progress notifications reach the client with the client's own progressToken, their values
 * increasing; the call either completes (the proxy restarts its timeout on progress) or ends in an
 * error no earlier than the call timeout. Beside it, a second such call, cancelled by the client
 * after its first progress, is cancelled upstream (2025-11-25: notifications/cancelled; 2026-07-28
 * HTTP: the request's stream closed): the fixture logs `slow: cancelled by the client after … of
 * <its length> ms` within cancel_ms. The two run at once: the step lasts about the long call. */
import { readFileSync, statSync } from 'node:fs';
import { describeOutcome, mainSession, nonce, outcomeOf, sleep, type CallOutcome } from '../calls.ts';
import { upstreamName } from '../cell-fixtures.ts';
import type { CellContext, StepDef, StepOutcome } from '../types.ts';

const EVERY_MS = 1000;
/** the long call outlives the call timeout by this much: 1 or 2 progress after it */
const PAST_TIMEOUT_MS = 1500;
/** the cancelled call is this much longer than the long one (so its fixture line is its own) */
const CANCELLED_EXTRA_MS = 30_000;
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
    return readFileSync(file)
      .subarray(offset)
      .toString('utf8')
      .split('\n')
      .filter((l) => re.test(l));
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
    // the gate chooses its own tokens, so a notification under any other token shows as such
    (s.conn.client as any).setNotificationHandler('notifications/progress', (n: any) => {
      seen.push({ token: n.params?.progressToken, progress: Number(n.params?.progress), at: Date.now() });
    });
    const log = ctx.fixtures.roles.main.log;
    const mark = logSize(log);
    const token = nonce('progress');
    const ms = t.proxy_call_timeout_ms + PAST_TIMEOUT_MS;
    const deadline = ms + t.hang_margin_ms;
    const ac = new AbortController();
    const started = Date.now();
    let longDone = false;
    const long = outcomeOf(
      s.call(slow, { ms, progress_ms: EVERY_MS }, { meta: { progressToken: token }, timeoutMs: deadline + 10_000, signal: ac.signal }),
      deadline,
    ).finally(() => {
      longDone = true;
    });
    const cancelled = cancelMidCall(
      ctx,
      slow,
      seen,
      ms + CANCELLED_EXTRA_MS,
      () => longDone && seen.filter((x) => x.token === token).length < MIN_PROGRESS,
    );
    const o = await long;
    if (o.kind === 'no_answer' || o.kind === 'transport_error') ac.abort();
    const c = await cancelled;
    const mine = seen.filter((x) => x.token === token);
    const values = mine.map((x) => x.progress);
    const stray = seen.filter((x) => x.token !== token && x.token !== c.token).map((x) => x.token);
    const evidence: Record<string, unknown> = {
      token,
      progress_received: mine.length,
      progress_values: values,
      other_tokens: stray.slice(0, 5),
      outcome: o.kind,
      ms: Math.round(o.ms),
      call_ms: ms,
      proxy_call_timeout_ms: t.proxy_call_timeout_ms,
      cancel: {
        token: c.token,
        progress_before_cancel: c.progressBefore,
        cancelled_after_ms: c.cancelledAfter,
        upstream_cancel_ms: c.reachedMs,
        upstream_cancelled_at_ms: c.upstreamAfterMs,
      },
      fixture_lines: [...linesSince(log, mark, /slow: progress/).slice(0, 3), ...c.lines],
      step_ms: Date.now() - started,
    };
    return verdict(
      { o, values, stray: stray.length, c, ms, deadline, timeoutMs: t.proxy_call_timeout_ms, cancelMs: t.cancel_ms },
      evidence,
    );
  },
};

/**
 * `upstreamAfterMs`: how far into the call the fixture saw the cancellation (its own log line). At
 * the proxy's call timeout or later, and from a proxy that does not restart its timeout on
 * progress, it may be the proxy giving up on its own (it cancels the call upstream then), not the
 * client's cancel.
 */
type CancelCheck = {
  token: string;
  progressBefore: number;
  cancelledAfter: number;
  reachedMs: number | null;
  upstreamAfterMs: number | null;
  lines: string[];
};

/**
 * A second slow call, aborted by the client after its first progress (or once the long call has
 * shown that no progress comes: then there is nothing to wait for), and the fixture's line that
 * its cancellation arrived.
 */
async function cancelMidCall(ctx: CellContext, slow: string, seen: Seen[], ms: number, hopeless: () => boolean): Promise<CancelCheck> {
  const s = mainSession(ctx);
  const t = ctx.cfg.timeouts;
  const log = ctx.fixtures.roles.main.log;
  const mark = logSize(log);
  const token = nonce('progress');
  const ac = new AbortController();
  const t0 = Date.now();
  s.call(slow, { ms, progress_ms: EVERY_MS }, { meta: { progressToken: token }, timeoutMs: ms + 10_000, signal: ac.signal }).catch(
    () => {},
  );
  const until = t0 + t.step_ms;
  while (!seen.some((x) => x.token === token) && !hopeless() && Date.now() < until) await sleep(50);
  const progressBefore = seen.filter((x) => x.token === token).length;
  ac.abort('cancelled by the gate');
  const t1 = Date.now();
  const mineLine = new RegExp(`slow: cancelled by the client after (\\d+) ms of ${ms} ms`);
  let lines: string[] = [];
  while (Date.now() - t1 < t.cancel_ms + 1000) {
    lines = linesSince(log, mark, mineLine);
    if (lines.length) break;
    await sleep(100);
  }
  const upstreamAfterMs = lines.length ? Number(mineLine.exec(lines[0])![1]) : null;
  return { token, progressBefore, cancelledAfter: t1 - t0, reachedMs: lines.length ? Date.now() - t1 : null, upstreamAfterMs, lines };
}

type Observed = {
  o: CallOutcome;
  values: number[];
  stray: number;
  c: CancelCheck;
  ms: number;
  deadline: number;
  timeoutMs: number;
  cancelMs: number;
};

function verdict({ o, values, stray, c, ms, deadline, timeoutMs, cancelMs }: Observed, evidence: Record<string, unknown>): StepOutcome {
  const got = values.length;
  if (got < MIN_PROGRESS) {
    return {
      status: 'fail',
      reason: `${got} progress notification(s) reached the client with its progressToken during a ${ms} ms call that sent one every ${EVERY_MS} ms (expected at least ${MIN_PROGRESS}${stray ? `; ${stray} came under another token` : ''})`,
      evidence,
    };
  }
  if (values.some((v, i) => i > 0 && !(v > values[i - 1])))
    return { status: 'fail', reason: `the progress values the client received do not increase: ${values.join(', ')}`, evidence };
  if (o.kind === 'tool_error' || o.kind === 'rpc_error') {
    if (o.ms < timeoutMs - 200)
      return {
        status: 'fail',
        reason: `the call failed after ${Math.round(o.ms)} ms, before the ${timeoutMs} ms call timeout: ${describeOutcome(o)}`,
        evidence,
      };
  } else if (o.kind !== 'ok') {
    return {
      status: 'fail',
      reason: `the call neither completed nor ended in an error within ${deadline} ms: ${describeOutcome(o)}`,
      evidence,
    };
  }
  if (c.reachedMs === null)
    return {
      status: 'fail',
      reason: `the client's cancellation of a call that reports progress (after ${c.progressBefore} progress, ${c.cancelledAfter} ms in) did not reach the upstream: the fixture logged no cancellation within ${cancelMs} ms`,
      evidence,
    };
  // a proxy that ended the long call at its timeout does not restart it on progress: a cancellation
  // of the second call that late may be its own timeout's (one that completed never times out)
  if (o.kind !== 'ok' && c.upstreamAfterMs !== null && c.upstreamAfterMs >= timeoutMs - 200) {
    return {
      status: 'fail',
      reason: `the upstream saw the cancellation ${c.upstreamAfterMs} ms into the call, no earlier than the proxy's own ${timeoutMs} ms call timeout, so it may be the proxy giving up rather than the client's cancel (sent ${c.cancelledAfter} ms in, after ${c.progressBefore} progress)`,
      evidence,
    };
  }
  // completed: the proxy restarts its timeout on progress (or has none); an error no earlier than the timeout: it does not
  const fate =
    o.kind === 'ok'
      ? `completed past the ${timeoutMs} ms call timeout (the proxy restarts its timeout on progress, or has none: the hang step tells which)`
      : `ended in an error after ${Math.round(o.ms)} ms, no earlier than the ${timeoutMs} ms call timeout`;
  return {
    status: 'pass',
    reason: `${got} progress notification(s) reached the client with its token (${values.join(', ')}); the ${ms} ms call ${fate}; a cancel mid-call reached the upstream after ${c.reachedMs} ms`,
    evidence,
  };
}
