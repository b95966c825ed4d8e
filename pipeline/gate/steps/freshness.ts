/**
 * freshness: mid-cell the main fixture changes its tool list (SIGUSR2: `fresh_added` appears,
 * `large` is removed, `fail` gets a new description; pipeline/fixture/list-changes.ts) and
 * announces it as its era does. Through the proxy the step measures, per change, the ms from the
 * signal to the first answer that shows it: the new tool found by discovery (pass-through: listed),
 * the removed one no longer found (listed) and a call of it an error, the new description what
 * discovery (the listing) returns. Red past `timeouts.fresh_ms`; on 2026-07-28 also red when
 * the old list is still served once the list's `ttlMs` (FRESH_TTL_MS) has passed after the change.
 * 2025-11-25 over stateless HTTP: not applicable (the upstream has no stream to announce on and the
 * revision has no ttlMs, so no rule the proxy could be held to).
 */
import { resultText } from '../../mcp/client.ts';
import { matchToolName, type ProxySession } from '../../adapter/index.ts';
import { callJson, describeOutcome, mainSession, oneLine, outcomeOf, sleep, within, type CallOutcome } from '../calls.ts';
import { FRESH_TTL_MS, containerLabels, taggedPids, upstreamName } from '../cell-fixtures.ts';
import { containersWith, dockerKill } from '../docker.ts';
import { CHANGE, CHANGE_SIGNAL } from '../../fixture/list-changes.ts';
import { MODERN_REVISION } from '../../mcp/protocol.ts';
import type { CellContext, StepDef, StepOutcome } from '../types.ts';

/** between two looks through the proxy */
const POLL_MS = 100;
/** on 2026-07-28, how long past ttlMs a proxy may take to re-list (one round trip) before the old list counts as served stale */
const TTL_GRACE_MS = 1000;

const QUERIES = {
  added: 'lanternfish tool the server added while it ran',
  removed: 'returns one text block of exactly the given number of bytes repeating ASCII pattern',
  redescribed: 'marigold revision fails on purpose',
} as const;

type Change = keyof typeof QUERIES;
const CHANGES: readonly Change[] = ['added', 'removed', 'redescribed'];

/** One look through the proxy: per change whether it shows, and what was seen. */
interface Look {
  at_ms: number;
  fresh: Record<Change, boolean>;
  seen: Record<Change, string>;
}

export const step: StepDef = {
  meta: { name: 'freshness', title: 'a changed upstream tool list reaches the client' },
  async run(ctx) {
    if (ctx.cell.transport === 'http-stateless' && ctx.cell.era !== MODERN_REVISION) {
      return {
        status: 'not_applicable',
        reason:
          '2025-11-25 over stateless streamable HTTP: the upstream has no stream to announce a change on (no session, GET answers 405) and the revision has no ttlMs: no rule a proxy could be held to',
      };
    }
    const s = mainSession(ctx);
    const t = ctx.cfg.timeouts;
    const server = upstreamName('main');
    const limit = t.fresh_ms;
    const modern = ctx.cell.era === MODERN_REVISION;
    // the proxy's name for the tool about to be removed, while it still exists (the stale-call check uses it)
    const removed = await s.resolve(`${server}:${CHANGE.removed}`, { timeoutMs: t.step_ms });
    if (removed.name === null)
      return { status: 'fail', reason: `before the change the proxy offers no name for ${server}:${CHANGE.removed} (${removed.how})` };
    const before = await look(ctx, s, removed.name, 0);
    const early = CHANGES.filter((c) => before.fresh[c] && c !== 'removed');
    if (early.length)
      return {
        status: 'fail',
        reason: `before the change the proxy already shows ${early.join(', ')}: ${early.map((c) => before.seen[c]).join('; ')}`,
        evidence: { before },
      };

    // the gate's own session with the proxy may speak another revision than the cell's upstreams
    const heard = await hearChanges(s, s.conn.protocolVersion === MODERN_REVISION, t.step_ms);
    const how = await sendChange(ctx, s);
    const t0 = Date.now();
    heard.t0 = t0;
    const changeAt = new Date(t0).toISOString();
    const freshAt: Partial<Record<Change, number>> = {};
    const relapsed: string[] = [];
    const looks: Look[] = [];
    let last: Look | undefined;
    while (Date.now() - t0 <= limit) {
      const l = await look(ctx, s, removed.name, t0);
      last = l;
      for (const c of CHANGES) {
        if (l.fresh[c] && freshAt[c] === undefined) freshAt[c] = l.at_ms;
        if (!l.fresh[c] && freshAt[c] !== undefined && relapsed.length < 3)
          relapsed.push(`${c} was fresh at ${freshAt[c]} ms, stale again at ${l.at_ms} ms: ${l.seen[c]}`);
      }
      // the first look, each one that changes something, and the last are the evidence
      const prev = looks[looks.length - 1];
      if (!prev || CHANGES.some((c) => prev.fresh[c] !== l.fresh[c])) looks.push(l);
      if (CHANGES.every((c) => freshAt[c] !== undefined) || relapsed.length) break;
      await sleep(POLL_MS);
    }
    if (last && looks[looks.length - 1] !== last) looks.push(last);
    await heard.close();
    const ttlRule = modern ? { ttl_ms: FRESH_TTL_MS, grace_ms: TTL_GRACE_MS } : undefined;
    const evidence: Record<string, unknown> = {
      change_at: changeAt,
      trigger: how,
      style: s.style,
      limit_ms: limit,
      ms_to_fresh: Object.fromEntries(CHANGES.map((c) => [c, freshAt[c] ?? null])),
      ...(ttlRule ? { ttl_rule: ttlRule } : {}),
      // not judged: whether the proxy passed a list_changed on to its own client (it must when the tools it lists changed)
      client_notified: {
        client_protocol: s.conn.protocolVersion ?? null,
        proxy_declares_list_changed: heard.declared,
        listen: heard.listen,
        ms_after_change: heard.at,
      },
      looks: looks.slice(0, 8),
      before,
    };
    return verdict(freshAt, last, relapsed, limit, ttlRule, s.style, evidence);
  },
};

function verdict(
  freshAt: Partial<Record<Change, number>>,
  last: Look | undefined,
  relapsed: string[],
  limit: number,
  ttlRule: { ttl_ms: number; grace_ms: number } | undefined,
  style: string,
  evidence: Record<string, unknown>,
): StepOutcome {
  const what = style === 'discovery' ? 'discovery' : 'tools/list';
  const stale = CHANGES.filter((c) => freshAt[c] === undefined);
  const fails: string[] = [];
  if (relapsed.length) fails.push(`a change went stale again: ${relapsed.join('; ')}`);
  if (stale.length)
    fails.push(
      `${limit} ms (timeouts.fresh_ms) after the change ${what} still shows the old list for ${stale.map((c) => `${c} (last look at ${last?.at_ms} ms: ${last?.seen[c]})`).join('; ')}`,
    );
  if (ttlRule) {
    // 2026-07-28: the list the proxy held was received before the change, so it expired by ttlMs after it
    const due = ttlRule.ttl_ms + ttlRule.grace_ms;
    const late = CHANGES.filter((c) => (freshAt[c] ?? Infinity) > due);
    if (late.length) {
      fails.push(
        `the old list was still served past its ttlMs: the upstream's tools/list said ttlMs ${ttlRule.ttl_ms}, so a list received before the change expired at most ${ttlRule.ttl_ms} ms after it (2026-07-28 caching rule, pipeline/gate/README.md); ${late.map((c) => `${c} ${freshAt[c] === undefined ? 'never fresh' : `fresh only at ${freshAt[c]} ms`}`).join(', ')} (allowed: ${due} ms incl. ${ttlRule.grace_ms} ms to re-list)`,
      );
    }
  }
  if (fails.length) return { status: 'fail', reason: fails.join('; '), evidence };
  const ms = CHANGES.map((c) => `${c} ${freshAt[c]} ms`).join(', ');
  return {
    status: 'pass',
    reason: `after the tool list change ${what} was fresh: ${ms} (limit ${limit} ms${ttlRule ? `, ttlMs ${ttlRule.ttl_ms} ms` : ''}); the removed tool's call: ${last?.seen.removed ?? ''}`,
    evidence,
  };
}

/**
 * Evidence only: a `notifications/tools/list_changed` the proxy sends its own client (the gate's
 * session) after the change; on 2026-07-28 through a `subscriptions/listen` stream the step opens
 * when the proxy declares `tools.listChanged`.
 */
async function hearChanges(s: ProxySession, modern: boolean, timeoutMs: number) {
  const client = s.conn.client as unknown as {
    getServerCapabilities(): { tools?: { listChanged?: unknown } } | undefined;
    setNotificationHandler(m: string, h: () => void): void;
    listen(f: { toolsListChanged: boolean }, o: { timeout: number }): Promise<{ close(): Promise<void> }>;
  };
  const declared = client.getServerCapabilities()?.tools?.listChanged === true;
  const out = { declared, listen: 'not opened' as string, at: null as number | null, t0: 0, close: async () => {} };
  try {
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      if (out.t0 && out.at === null) out.at = Date.now() - out.t0;
    });
  } catch {
    return out;
  }
  if (modern && declared) {
    try {
      const sub = await within(client.listen({ toolsListChanged: true }, { timeout: timeoutMs }), timeoutMs + 500, 'subscriptions/listen');
      out.listen = 'open';
      out.close = () => sub.close().catch(() => {});
    } catch (e) {
      out.listen = `failed: ${oneLine((e as Error).message, 120)}`;
    }
  }
  return out;
}

/** SIGUSR2 to the main fixture: stdio its pid (from its own stats, checked to carry this cell's tag), HTTP the gate's process, docker its container. */
async function sendChange(ctx: CellContext, s: ProxySession): Promise<string> {
  const rf = ctx.fixtures.roles.main;
  if (ctx.cell.transport === 'stdio') {
    const stats = await callJson(s, `${upstreamName('main')}:stats`, {}, ctx.cfg.timeouts.step_ms);
    const pid = Number(stats?.pid);
    const ours = taggedPids(rf.tag);
    if (!Number.isInteger(pid) || !ours.includes(pid))
      throw new Error(
        `the main fixture reports pid ${stats?.pid}, which is not a live process of this cell (tagged: ${ours.join(', ') || 'none'})`,
      );
    process.kill(pid, CHANGE_SIGNAL);
    return `${CHANGE_SIGNAL} to stdio fixture pid ${pid}`;
  }
  if (ctx.cell.transport === 'docker') {
    const ids = await containersWith(containerLabels(ctx.runId, ctx.cell, 'main'), { running: true });
    if (ids.length !== 1) throw new Error(`expected exactly one running container of the main fixture, found ${ids.length}`);
    await dockerKill(ids[0], CHANGE_SIGNAL);
    return `docker kill --signal ${CHANGE_SIGNAL} ${ids[0].slice(0, 12)}`;
  }
  const pid = rf.proc?.pid;
  if (!pid) throw new Error('the main HTTP fixture is not running');
  process.kill(pid, CHANGE_SIGNAL);
  return `${CHANGE_SIGNAL} to HTTP fixture pid ${pid}`;
}

/** One look at all three changes through the proxy, at once. */
async function look(ctx: CellContext, s: ProxySession, removedName: string, t0: number): Promise<Look> {
  const server = upstreamName('main');
  const map = ctx.opts.adapter.toolMap;
  const ms = ctx.cfg.timeouts.step_ms;
  const callP = outcomeOf(callByName(ctx, s, removedName, { bytes: 16 }, ms), ms + 500);
  const fresh = {} as Record<Change, boolean>;
  const seen = {} as Record<Change, string>;
  if (s.style === 'discovery') {
    const found = await Promise.all(
      CHANGES.map(async (c) => {
        try {
          return await within(
            s.discover(QUERIES[c], { limit: ctx.cfg.budgets.limit, timeoutMs: ms }),
            ms + 500,
            ctx.opts.adapter.discoveryTool,
          );
        } catch (e) {
          return { text: '', names: [] as string[], isError: true, ms: 0, error: (e as Error).message };
        }
      }),
    );
    const [a, r, d] = found;
    const addedName = matchToolName(a.names, server, CHANGE.added, map).name;
    fresh.added = addedName !== null;
    seen.added =
      addedName !== null
        ? `found as ${addedName}`
        : `not found (${a.isError ? `error: ${oneLine(a.text || (a as { error?: string }).error, 120)}` : `got ${a.names.slice(0, 5).join(', ') || 'nothing'}`})`;
    const stillName = matchToolName(r.names, server, CHANGE.removed, map).name;
    const call = await callP;
    fresh.removed = stillName === null && !r.isError && call.kind !== 'ok';
    seen.removed = `${stillName !== null ? `still found as ${stillName}` : r.isError ? `search error: ${oneLine(r.text, 120)}` : 'not found'}; call: ${callText(call)}`;
    const failName = matchToolName(d.names, server, CHANGE.redescribed, map).name;
    fresh.redescribed = failName !== null && d.text.includes(CHANGE.marker);
    seen.redescribed =
      failName === null
        ? `not found (got ${d.names.slice(0, 5).join(', ') || 'nothing'})`
        : d.text.includes(CHANGE.marker)
          ? `found with the new description`
          : `found with the old description`;
  } else {
    let tools: Array<{ name: string; description?: string }> = [];
    let err = '';
    try {
      tools = await within(s.listTools(ms), ms + 500, 'tools/list');
    } catch (e) {
      err = (e as Error).message;
    }
    const names = tools.map((x) => x.name);
    const addedName = matchToolName(names, server, CHANGE.added, map).name;
    fresh.added = !err && addedName !== null;
    seen.added = err
      ? `tools/list failed: ${oneLine(err, 120)}`
      : addedName !== null
        ? `listed as ${addedName}`
        : `not listed (${names.length} tools)`;
    const stillName = matchToolName(names, server, CHANGE.removed, map).name;
    const call = await callP;
    fresh.removed = !err && stillName === null && call.kind !== 'ok';
    seen.removed = `${err ? 'tools/list failed' : stillName !== null ? `still listed as ${stillName}` : 'not listed'}; call: ${callText(call)}`;
    const failName = matchToolName(names, server, CHANGE.redescribed, map).name;
    const desc = tools.find((x) => x.name === failName)?.description ?? '';
    fresh.redescribed = failName !== null && desc.includes(CHANGE.marker);
    seen.redescribed =
      failName === null
        ? 'not listed'
        : desc.includes(CHANGE.marker)
          ? 'listed with the new description'
          : `listed with the old description (${oneLine(desc, 60)})`;
  }
  return { at_ms: t0 ? Date.now() - t0 : 0, fresh, seen };
}

function callText(o: CallOutcome): string {
  return o.kind === 'ok' ? `stale success (${oneLine(resultText(o.result), 80)})` : describeOutcome(o).slice(0, 200);
}

/** Call a tool by the proxy's own name for it (the name resolved before the change), not through a new search. */
function callByName(ctx: CellContext, s: ProxySession, name: string, args: Record<string, unknown>, timeoutMs: number) {
  const o = ctx.opts.adapter;
  if (s.style === 'passthrough') return s.conn.callTool(name, args, { timeoutMs });
  return s.conn.callTool(o.callTool, { [o.callNameArg]: name, [o.callArgsArg]: args }, { timeoutMs });
}
