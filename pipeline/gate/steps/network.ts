/**
 * net-<fault>: one step per entry of the network-fault registry (network/faults.ts), run in the
 * network cells only (the fixture behind toxiproxy, network/fixtures.ts). Each step:
 *   1. a warm echo through the faulty link, then the connections to the link and the cell's
 *      processes are counted;
 *   2. the fault's toxics are set (toxiproxy's API), and the fault's call is made through the
 *      proxy: a correct proxy answers within the call timeout + margin with a well-formed error
 *      (for latency within the timeout: the result, slower by the latency); meanwhile a second
 *      session calls the direct fixture (`gate_barrier`): it must not be affected;
 *   3. the toxics are removed and an echo must succeed again within `timeouts.recovery_ms`;
 *   4. no connection to the link and no process of the cell is left over (polled, 6 s at most);
 *   5. the link is drained (drainLink): toxiproxy holds no connection of this fault any more, so
 *      the next fault's toxics cannot crash it; a fault's verdict does not depend on its place.
 * The verdict carries the toxics that were set and when (ms offsets from the step's start):
 * `evidence.network` (datasets/schemas/gate-report.schema.json `network_verdict`).
 */
import { resultText } from '../../mcp/client.ts';
import { pidsWithEnv } from '../../util/proc.ts';
import { describeOutcome, mainSession, nonce, oneLine, outcomeOf, sleep, within } from '../calls.ts';
import { TAG_ENV, upstreamName } from '../cell-fixtures.ts';
import { NETWORK_STEP_PREFIX, type NetworkFault } from '../network/faults.ts';
import { connectionsTo, heldClosedOn } from '../network/sockets.ts';
import type { CellContext, StepDef, StepOutcome } from '../types.ts';

/** how long leftovers may take to go away (an HTTP client's idle keep-alive socket closes within ~5 s) */
const LEAK_SETTLE_MS = 6000;
/**
 * A healthy HTTP client keeps a small pool to its upstream (measured: the reference proxy 1 to 2
 * keep-alive sockets over streamable HTTP, 3 to 4 over HTTP+SSE with its event stream;
 * supergateway's SSE client 2 before the first fault, then 4 for the rest of the cell), and may
 * widen it after a fault (a socket stuck on the dead exchange, its replacement). A leak grows
 * with every fault: allowed is POOL_SLACK more than the cell had before its first fault (at least
 * POOL_FLOOR), which a socket-per-fault leak crosses by the third fault.
 */
const POOL_FLOOR = 2;
const POOL_SLACK = 2;

/** the cell's tagged processes but toxiproxy's own (its watchdog shell forks a `sleep` now and then) */
function cellProcesses(prefix: string): number {
  const fault = new Set(pidsWithEnv(TAG_ENV, `${prefix}toxiproxy`, { exact: true }));
  return pidsWithEnv(TAG_ENV, prefix).filter((p) => !fault.has(p)).length;
}

async function echoThrough(ctx: CellContext, timeoutMs: number): Promise<string | null> {
  const s = mainSession(ctx);
  const n = nonce('net');
  const tool = `${upstreamName('main')}:echo`;
  try {
    const r = await within(s.call(tool, { input: n }, { timeoutMs }), timeoutMs + 500, tool);
    const text = resultText(r);
    return !r.isError && text.includes(n)
      ? null
      : `echo answered ${r.isError ? 'a tool error' : 'without its nonce'}: ${oneLine(text, 160)}`;
  } catch (e) {
    return oneLine((e as Error).message, 200);
  }
}

/** After the toxics are removed: echo until one succeeds or recovery_ms has passed (null = recovered). */
async function awaitRecovery(ctx: CellContext, recoveryMs: number, stepMs: number): Promise<{ recovery: string | null; tries: number }> {
  let recovery: string | null = 'never tried';
  let tries = 0;
  const until = Date.now() + recoveryMs;
  while (Date.now() < until) {
    tries++;
    recovery = await echoThrough(ctx, Math.max(500, Math.min(stepMs, until - Date.now())));
    if (recovery === null) break;
    await sleep(200);
  }
  return { recovery, tries };
}

/** Connections to the link and the cell's processes, given LEAK_SETTLE_MS to fall back within bounds. */
async function settleLeaks(
  rig: NonNullable<CellContext['fixtures']['network']>,
  bound: number,
  procBefore: number,
): Promise<{ connAfter: number | null; procAfter: number }> {
  let connAfter = connectionsTo(rig.listenPort);
  let procAfter = cellProcesses(rig.tagPrefix);
  const settle = Date.now() + LEAK_SETTLE_MS;
  while ((connAfter !== null && connAfter > bound) || procAfter > procBefore) {
    if (Date.now() > settle) break;
    await sleep(200);
    connAfter = connectionsTo(rig.listenPort);
    procAfter = cellProcesses(rig.tagPrefix);
  }
  return { connAfter, procAfter };
}

/**
 * toxiproxy 2.5.0 keeps a connection whose stream a toxic closed (limit_data) alive while a later
 * toxic holds the close (slow_close's delay), and removing the toxics leaves that connection's
 * toxic chain stale: a toxic added while it lives crashes toxiproxy (index out of range in
 * ToxicLink.AddToxic), which failed whatever fault came next with "fetch failed". So a fault ends
 * only once toxiproxy has let go: not before the fault's longest close delay has passed since its
 * call was sent (+ DRAIN_MARGIN_MS for the answer to reach the toxic), and with no connection the
 * proxy under test closed still held open by toxiproxy (CLOSE_WAIT on the link's port), polled up
 * to LEAK_SETTLE_MS more. The count still held is returned (0 = drained; null = not readable).
 */
const DRAIN_MARGIN_MS = 1000;

async function drainLink(rig: Rig, toxics: Toxics, callSentAt: number | undefined): Promise<number | null> {
  const hold = Math.max(0, ...toxics.filter((x) => x.type === 'slow_close').map((x) => x.attributes.delay ?? 0));
  if (hold > 0 && callSentAt !== undefined) {
    const wait = callSentAt + hold + DRAIN_MARGIN_MS - performance.now();
    if (wait > 0) await sleep(wait);
  }
  const until = Date.now() + LEAK_SETTLE_MS;
  let held = heldClosedOn(rig.listenPort);
  while (held !== null && held > 0 && Date.now() < until) {
    await sleep(100);
    held = heldClosedOn(rig.listenPort);
  }
  return held;
}

type Outcome = Awaited<ReturnType<typeof outcomeOf>>;

/** What the faulted call should have done: an error in time, or (latency within the timeout) a success across the link. */
function callProblems(
  fault: NetworkFault,
  o: Outcome,
  said: string,
  n: string,
  x: { deadline: number; callT: number; marginMs: number; latency: number },
): string[] {
  if (fault.expect === 'error') {
    return o.kind !== 'tool_error' && o.kind !== 'rpc_error'
      ? [
          `the call must end in a tool error or JSON-RPC error within ${x.deadline} ms (call timeout ${x.callT} + ${x.marginMs} ms margin): ${said}`,
        ]
      : [];
  }
  if (o.kind !== 'ok' || !resultText(o.result).includes(n))
    return [`the call must succeed within ${x.deadline} ms despite ${x.latency} ms of latency: ${said}`];
  if (o.ms < x.latency * 0.9)
    return [
      `the call answered in ${Math.round(o.ms)} ms, faster than the ${x.latency} ms latency on the link: it did not cross the fault proxy`,
    ];
  return [];
}

/** The second session's call to the direct upstream must be unaffected. */
function sideProblems(so: Outcome | undefined, sideTool: string, sideN: string): string[] {
  if (so && so.kind !== 'ok') return [`a second session's call to the direct upstream (${sideTool}) was affected: ${describeOutcome(so)}`];
  if (so && !resultText(so.result).includes(sideN)) return [`a second session's call to ${sideTool} came back without its nonce`];
  return [];
}

type Rig = NonNullable<CellContext['fixtures']['network']>;
type Session = ReturnType<typeof mainSession>;
type Toxics = ReturnType<NetworkFault['toxics']>;

/** Step 2 of the fault: the toxics set, the faulted call and the second session's call made, the toxics removed again. */
async function applyFault(
  rig: Rig,
  fault: NetworkFault,
  toxics: Toxics,
  set: string[],
  timeline: Record<string, number>,
  at: () => number,
  /** sent.at: when the call was sent (performance.now), for drainLink even if this throws */
  x: { s: Session; tool: string; side: Session | undefined; sideTool: string; deadline: number; callT: number; sent: { at?: number } },
): Promise<{ reported: string[]; n: string; o: Outcome; so: Outcome | undefined; sideN: string }> {
  const { s, tool, side, sideTool, deadline, callT, sent } = x;
  for (const tx of toxics) {
    await rig.toxiproxy.addToxic(rig.link, tx);
    set.push(tx.name);
  }
  timeline.toxics_set = at();
  const reported = (await rig.toxiproxy.toxics(rig.link)).map((x) => x.name);
  const n = nonce('net');
  const args = fault.call.tool === 'echo' ? { input: n } : fault.call.args;
  const ac = new AbortController();
  timeline.call_sent = at();
  sent.at = performance.now();
  const callP = outcomeOf(s.call(tool, args, { timeoutMs: deadline + 10_000, signal: ac.signal }), deadline).then(
    (o) => ((timeline.call_answered = at()), o),
  );
  const sideN = nonce('side');
  const sideP = side
    ? outcomeOf(side.call(sideTool, { input: sideN }, { timeoutMs: callT }), callT).then((o) => ((timeline.side_answered = at()), o))
    : Promise.resolve(undefined);
  const [o, so] = await Promise.all([callP, sideP]);
  if (o.kind === 'no_answer' || o.kind === 'transport_error') ac.abort();

  for (const name of [...set]) {
    await rig.toxiproxy.removeToxic(rig.link, name);
    set.splice(set.indexOf(name), 1);
  }
  timeline.toxics_removed = at();

  return { reported, n, o, so, sideN };
}

/** The step's outcome: fail with the problems, or pass with what the call, the second session and the recovery showed. */
function verdict(
  toxics: Toxics,
  timeline: Record<string, number>,
  problems: string[],
  said: string,
  so: Outcome | undefined,
  evidence: { network: { recovery: { ms_after_removal?: number } } } & Record<string, unknown>,
): StepOutcome {
  const toxicText = toxics.map((x) => `${x.type} ${x.stream} ${JSON.stringify(x.attributes)}`).join(' + ');
  if (problems.length)
    return { status: 'fail', reason: `${toxicText} (set at +${timeline.toxics_set} ms): ${problems.join('; ')}`, evidence };
  const sideText = so
    ? `, a second session unaffected (${Math.round(so.ms)} ms)`
    : ', single-upstream proxy: no second upstream to compare';
  return {
    status: 'pass',
    reason: `${toxicText} (set at +${timeline.toxics_set} ms): ${said}${sideText}; recovered ${evidence.network.recovery.ms_after_removal} ms after removal; no connection or process left`,
    evidence,
  };
}

/** Steps 3 and 4: no recovery within recovery_ms, connections or processes left over after the fault. */
function afterProblems(
  rig: Rig,
  x: {
    recovery: string | null;
    tries: number;
    recoveryMs: number;
    connBefore: number | null;
    connAfter: number | null;
    bound: number;
    procBefore: number;
    procAfter: number;
  },
): string[] {
  const { recovery, tries, connBefore, connAfter, bound, procBefore, procAfter } = x;
  const problems: string[] = [];
  if (recovery !== null)
    problems.push(
      `after the toxics were removed no echo succeeded within ${x.recoveryMs} ms (timeouts.recovery_ms; ${tries} tries): ${recovery}`,
    );
  if (connAfter !== null && connAfter > bound)
    problems.push(
      `${connAfter - bound} connection(s) to the upstream left open ${LEAK_SETTLE_MS} ms after recovery (${connAfter} open; ${connBefore} before this fault, ${rig.baselineConnections} before the cell's first fault, at most ${bound} allowed)`,
    );
  // more processes after the fault than before (one ending, e.g. a session's child of an earlier step, is no leak)
  if (procAfter > procBefore) problems.push(`the cell had ${procBefore} process(es) before the fault and ${procAfter} after`);
  return problems;
}

export function networkStep(fault: NetworkFault): StepDef {
  return {
    meta: { name: `${NETWORK_STEP_PREFIX}${fault.name}`, title: fault.title },
    async run(ctx): Promise<StepOutcome> {
      const rig = ctx.fixtures.network;
      if (!rig) return { status: 'not_applicable', reason: 'not a network cell (no fault proxy in front of the fixture)' };
      const s = mainSession(ctx);
      const t = ctx.cfg.timeouts;
      const callT = t.proxy_call_timeout_ms;
      const deadline = callT + t.hang_margin_ms;
      const t0 = performance.now();
      const at = () => Math.round(performance.now() - t0);
      const timeline: Record<string, number> = {};
      const toxics = fault.toxics(callT);
      const set: string[] = [];
      const sent: { at?: number } = {};
      let drained = false;
      try {
        const warm = await echoThrough(ctx, t.step_ms);
        if (warm) return { status: 'fail', reason: `before the fault: an echo through the link failed: ${warm}` };
        const side = ctx.fixtures.single ? undefined : await ctx.openSession();
        const sideTool = `${upstreamName('barrier')}:echo`;
        if (side) await side.resolve(sideTool);
        const tool = `${upstreamName('main')}:${fault.call.tool}`;
        await s.resolve(tool);
        const connBefore = connectionsTo(rig.listenPort);
        // the cell's pool before its first fault: later faults are held to it (a leak accumulates)
        if (connBefore !== null) rig.baselineConnections ??= connBefore;
        const bound = Math.max(rig.baselineConnections ?? 0, POOL_FLOOR) + POOL_SLACK;
        const procBefore = cellProcesses(rig.tagPrefix);

        const { reported, n, o, so, sideN } = await applyFault(rig, fault, toxics, set, timeline, at, {
          s,
          tool,
          side,
          sideTool,
          deadline,
          callT,
          sent,
        });

        const { recovery, tries } = await awaitRecovery(ctx, t.recovery_ms, t.step_ms);
        if (recovery === null) timeline.recovered = at();
        const { connAfter, procAfter } = await settleLeaks(rig, bound, procBefore);
        timeline.checked = at();
        const heldAfter = await drainLink(rig, toxics, sent.at);
        drained = true;
        timeline.drained = at();

        const said = describeOutcome(o);
        const problems = [
          ...callProblems(fault, o, said, n, {
            deadline,
            callT,
            marginMs: t.hang_margin_ms,
            latency: toxics.find((x) => x.type === 'latency')?.attributes.latency ?? 0,
          }),
          ...sideProblems(so, sideTool, sideN),
        ];
        problems.push(
          ...afterProblems(rig, { recovery, tries, recoveryMs: t.recovery_ms, connBefore, connAfter, bound, procBefore, procAfter }),
        );

        const evidence = {
          network: {
            fault: fault.name,
            means: fault.means,
            toxics,
            toxiproxy_reported: reported,
            timeline_ms: timeline,
            call: { tool, expect: fault.expect, deadline_ms: deadline, outcome: o.kind, ms: Math.round(o.ms), said: oneLine(said, 300) },
            second_session: so ? { tool: sideTool, outcome: so.kind, ms: Math.round(so.ms) } : null,
            recovery: {
              ok: recovery === null,
              tries,
              ...(timeline.recovered !== undefined ? { ms_after_removal: timeline.recovered - timeline.toxics_removed } : {}),
            },
            connections: {
              port: rig.listenPort,
              before: connBefore,
              after: connAfter,
              baseline: rig.baselineConnections ?? null,
              allowed: bound,
              held_by_fault_proxy: heldAfter,
            },
            processes: { before: procBefore, after: procAfter },
          },
        };
        return verdict(toxics, timeline, problems, said, so, evidence);
      } finally {
        // a step that threw leaves no toxic behind for the next one, nor a connection toxiproxy still holds
        for (const name of set) await rig.toxiproxy.removeToxic(rig.link, name).catch(() => {});
        if (!drained) await drainLink(rig, toxics, sent.at).catch(() => null);
      }
    },
  };
}
