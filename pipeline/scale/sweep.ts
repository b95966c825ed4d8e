/**
 * Cost growth vs catalog size (`mcpgauge bench --live --scale 10,100,1000`).
 *
 * For each size N the fixture serves a catalog of N real tool definitions sampled from a corpus
 * (`--catalog N --catalog-from FILE --page-size P`, over stdio); every system is started in front
 * of it (one after another, so each time-to-ready is measured alone; the order rotates per N),
 * then the fixed query set runs interleaved across the systems (query by query, so machine noise
 * hits all alike). Per (system, N): menu tokens, discovery response tokens p50/p95, time to ready,
 * discovery latency p50/p99, proxy RSS, break-even. A point that exceeds its deadline or fails is
 * recorded with the reason and the sweep goes on. Fitted growth exponents: fit.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcp } from '../mcp/client.ts';
import { targetOf, type UpstreamConfig } from '../proxy/config.ts';
import { fixtureStdioTarget } from '../fixture/launch.ts';
import { loadCorpus } from '../corpus/load.ts';
import { loadGolden } from '../corpus/golden.ts';
import { getTokenizer, type Tokenizer } from '../tokens/tokenizer.ts';
import { percentile, mean } from '../util/stats.ts';
import { processMemory } from '../util/proc.ts';
import { DEFAULT_CORPUS, DEFAULT_GOLDEN } from '../constants.ts';
import { listingTokens } from '../systems/menu.ts';
import type { AdapterOptions } from '../adapter/index.ts';
import type { Detail, ScalePoint, ScaleReport } from '../report/index.ts';
import { UserError, type GoldenQuery } from '../types.ts';
import type { WireTool } from '../mcp/client.ts';
import { openSystem, type OpenedSystem } from '../systems/open.ts';
import { systemKind, type SystemSpec } from '../systems/kinds/index.ts';
import { fitScale } from './fit.ts';
import { SCALE_DEFAULTS } from './defaults.ts';

export interface ScaleOptions {
  sizes: number[];
  systems: SystemSpec[];
  /** corpus the catalog is sampled from */
  catalogFrom: string;
  /** tools/list page size of the fixture (the client must page) */
  pageSize?: number;
  goldenFile?: string;
  corpusFile?: string;
  /** first Q golden queries form the fixed query set (default 20) */
  queryCount?: number;
  runs?: number;
  warmup?: number;
  limit?: number;
  detail?: Detail;
  tokenizers: string[];
  /** deadline of one (system, N) point, start to stop (default 120 s) */
  pointTimeoutMs?: number;
  /** connect deadline (default 60 s, never above the point deadline) */
  timeoutMs?: number;
  adapter?: AdapterOptions;
  apiKey?: string;
  log?: (line: string) => void;
  /** progress line per (system, N): a TTY redraws it in place */
  progress?: (line: string) => void;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
/** direct relists its whole catalog at every DIRECT_EVERY-th query slot (a 5,000-tool listing takes a while) */
const DIRECT_EVERY = 4;

class Deadline extends Error {}

/** Per-system state while a size is measured. */
interface Live {
  spec: SystemSpec;
  point: ScalePoint;
  t0: number;
  deadlineAt: number;
  sys?: OpenedSystem;
  texts: Map<string, string>;
  timed: number[];
  done: number;
}

function fail(l: Live, reason: string): void {
  if (!l.point.ok) return;
  l.point.ok = false;
  l.point.error = reason;
}

async function withDeadline<T>(p: Promise<T>, at: number, what: string, onLate: (v: T) => void): Promise<T> {
  let late = false;
  // attached first: whatever happens below, a late result is cleaned up and a late failure handled
  p.then((v) => {
    if (late) onLate(v);
  }).catch(() => {});
  const ms = at - Date.now();
  if (ms <= 0) {
    late = true;
    throw new Deadline(what);
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(new Deadline(what));
    }, ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Lists the catalog upstream directly: the full menu at this size (measured over MCP). */
async function listCatalog(upstream: UpstreamConfig, timeoutMs: number): Promise<{ server: string; tool: WireTool }[]> {
  const conn = await connectMcp(targetOf(upstream), { timeoutMs });
  try {
    return (await conn.listAllTools({ timeoutMs })).map((tool) => ({ server: upstream.name, tool }));
  } finally {
    await conn.close();
  }
}

export async function runScale(o: ScaleOptions): Promise<ScaleReport> {
  const log = o.log ?? (() => {});
  const progress = o.progress ?? (() => {});
  const pageSize = o.pageSize ?? SCALE_DEFAULTS.pageSize;
  const runs = o.runs ?? SCALE_DEFAULTS.runs;
  const warmup = o.warmup ?? SCALE_DEFAULTS.warmup;
  const limit = o.limit ?? SCALE_DEFAULTS.limit;
  const detail = o.detail ?? SCALE_DEFAULTS.detail;
  const pointTimeoutMs = o.pointTimeoutMs ?? SCALE_DEFAULTS.pointTimeoutMs;
  const connectMs = o.timeoutMs ?? 60_000;
  const timeoutMs = Math.min(connectMs, pointTimeoutMs);
  if (o.sizes.length === 0) throw new UserError('--scale needs at least one catalog size');
  const tks = o.tokenizers.map(getTokenizer);
  const source = await loadCorpus(o.catalogFrom);
  if (source.tools.length === 0) throw new UserError(`${o.catalogFrom}: --catalog-from corpus has no tools`);
  const goldenFile = o.goldenFile ?? DEFAULT_GOLDEN;
  const golden = await loadGolden(goldenFile, await loadCorpus(o.corpusFile ?? DEFAULT_CORPUS));
  const queries: GoldenQuery[] = golden.queries.slice(0, o.queryCount ?? SCALE_DEFAULTS.queryCount);
  if (queries.length === 0) throw new UserError(`${goldenFile}: no queries for the scale sweep`);
  warnFixedUpstreams(o.systems, log);

  const points: ScalePoint[] = [];
  const descriptions = new Map<string, string>();
  for (const [ni, n] of o.sizes.entries()) {
    const dir = mkdtempSync(join(tmpdir(), `mcpgauge-scale-${n}-`));
    try {
      const t = fixtureStdioTarget(['--catalog', String(n), '--catalog-from', o.catalogFrom, '--page-size', String(pageSize)]);
      if (t.kind !== 'stdio') throw new Error('fixture target is not stdio');
      const upstream: UpstreamConfig = { name: 'catalog', command: t.command, args: t.args ?? [], env: t.env ?? {} };
      progress(`scale N=${n}: listing the catalog directly`);
      let full: { server: string; tool: WireTool }[];
      try {
        full = await listCatalog(upstream, connectMs);
      } catch (e) {
        // no catalog at this size: every system's point fails with the reason, the sweep goes on
        const reason = `the catalog fixture did not list its tools: ${(e as Error).message.split('\n')[0]}`;
        log(`scale N=${n}: ${reason}`);
        for (const spec of o.systems)
          points.push({ system: spec.name, catalog_size: n, upstream_tools: 0, ok: false, error: reason, wall_ms: 0, errors: 0 });
        continue;
      }
      const fullTokens = listingTokens(full, tks);
      // rotate the start order per size so no system always boots first
      const order = o.systems.map((_, i) => o.systems[(i + ni) % o.systems.length]);
      const lives: Live[] = order.map((spec) => newLive(spec, n, full.length, fullTokens));
      // start each system alone (time to ready without competition)
      for (const l of lives)
        await startLive(l, {
          upstream,
          dir,
          expectedTools: full.length,
          probeQuery: queries[0].query,
          timeoutMs,
          pointTimeoutMs,
          adapter: o.adapter,
          apiKey: o.apiKey,
          tks,
          descriptions,
          progress: (m) => progress(`scale N=${n} ${m}`),
        });
      await measureInterleaved(lives, queries, { runs, warmup, limit, detail, timeoutMs, pointTimeoutMs, n, progress });
      for (const l of lives) {
        await closeLive(l, tks, runs, queries.length);
        points.push(l.point);
        logPoint(log, n, l.point, tks);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const names = o.systems.map((s) => s.name);
  const notes = scaleNotes(source, points, pageSize);
  return {
    catalog: { source: o.catalogFrom, corpus_id: source.id, seed: 42, page_size: pageSize, sizes: o.sizes },
    queries: { source: goldenFile, ids: queries.map((q) => q.id), limit, detail, runs, warmup },
    systems: reportSystems(o.systems, descriptions),
    point_timeout_ms: pointTimeoutMs,
    points,
    fits: fitScale(
      points,
      names,
      tks.map((t) => t.name),
    ),
    notes,
  };
}

/** Warns about systems with fixed upstreams: they cannot be put in front of a catalog, so their points fail. */
function warnFixedUpstreams(systems: readonly SystemSpec[], log: (line: string) => void): void {
  for (const s of systems) {
    const fixed = systemKind(s.kind).fixedUpstreams;
    if (fixed)
      log(`scale: system ${s.name} is ${fixed.what}; it cannot be put in front of each catalog, its points are recorded as failed`);
  }
}

/** Fresh per-system state for one size: an ok point with the full menu, nothing measured yet. */
function newLive(spec: SystemSpec, n: number, upstreamTools: number, fullTokens: ScalePoint['full_menu_tokens']): Live {
  return {
    spec,
    point: {
      system: spec.name,
      catalog_size: n,
      upstream_tools: upstreamTools,
      ok: true,
      wall_ms: 0,
      full_menu_tokens: fullTokens,
      errors: 0,
    },
    t0: 0,
    deadlineAt: 0,
    texts: new Map(),
    timed: [],
    done: 0,
  };
}

/** Logs the one-line outcome of a finished (system, N) point. */
function logPoint(log: (line: string) => void, n: number, p: ScalePoint, tks: readonly Tokenizer[]): void {
  log(
    `scale N=${n} ${p.system}: ${p.ok ? 'ok' : `FAILED (${p.error})`}; menu ${p.menu_tokens?.[tks[0].name] ?? '—'} tokens, ready ${p.ready_ms !== undefined ? Math.round(p.ready_ms) : '—'} ms, latency p50 ${p.latency?.p50_ms ?? '—'} ms, rss ${p.rss_mb ?? '—'} MB, wall ${(p.wall_ms / 1000).toFixed(1)} s`,
  );
}

/** The report's notes: how the catalog was built, what the exponents and direct mean, the ready rules seen. */
function scaleNotes(source: { id: string; tools: readonly unknown[] }, points: readonly ScalePoint[], pageSize: number): string[] {
  return [
    `catalog: the fixture's --catalog N --catalog-from ${source.id} (seeded sample of real definitions, nested, renamed past ${source.tools.length} tools) plus its ${points[0] ? points[0].upstream_tools - points[0].catalog_size : 6} built-in tools; tools/list paged by ${pageSize}`,
    `growth exponents: least-squares slope of log(figure) on log(upstream tools) per system (computed); 1 = linear, 0 = flat`,
    `direct: no proxy and no discovery call; its latency is a full tools/list of every upstream (all pages) at every ${DIRECT_EVERY}th query slot, and it has no response tokens or break-even`,
    `ready: ${[...new Set(points.map((p) => p.ready_rule).filter(Boolean))].join('; ')}`,
  ];
}

/** The report's system rows, each with the description its start reported (if any). */
function reportSystems(systems: readonly SystemSpec[], descriptions: Map<string, string>): ScaleReport['systems'] {
  return systems.map((s) => {
    const row: ScaleReport['systems'][number] = { name: s.name, kind: s.kind, spec: s.spec };
    const d = descriptions.get(s.name);
    if (d) row.description = d;
    return row;
  });
}

/** Starts one system of a point alone (time to ready without competition); a failure fails only its point. */
async function startLive(
  l: Live,
  e: {
    upstream: UpstreamConfig;
    dir: string;
    expectedTools: number;
    probeQuery: string;
    timeoutMs: number;
    pointTimeoutMs: number;
    adapter: ScaleOptions['adapter'];
    apiKey: ScaleOptions['apiKey'];
    tks: Tokenizer[];
    descriptions: Map<string, string>;
    progress: (m: string) => void;
  },
): Promise<void> {
  l.t0 = performance.now();
  l.deadlineAt = Date.now() + e.pointTimeoutMs;
  e.progress(`${l.spec.name}: starting`);
  const fixed = systemKind(l.spec.kind).fixedUpstreams;
  if (fixed) {
    fail(l, fixed.reason);
    return;
  }
  try {
    const ctx = {
      upstreams: [e.upstream],
      workDir: e.dir,
      expectedTools: e.expectedTools,
      probeQuery: e.probeQuery,
      timeoutMs: e.timeoutMs,
      readyTimeoutMs: e.pointTimeoutMs,
      adapter: e.adapter,
      apiKey: e.apiKey,
    };
    l.sys = await withDeadline(openSystem(l.spec, ctx), l.deadlineAt, 'start', (late) => void late.close());
    e.descriptions.set(l.spec.name, l.sys.description);
    l.point.ready_ms = round3(l.sys.readyMs);
    l.point.ready_rule = l.sys.readyRule;
    l.point.listed_tools = l.sys.menu.length;
    l.point.menu_tokens = listingTokens(l.sys.menu, e.tks);
  } catch (err) {
    fail(
      l,
      err instanceof Deadline
        ? `exceeded the per-point deadline of ${e.pointTimeoutMs} ms while starting`
        : `did not start: ${(err as Error).message.split('\n')[0]}`,
    );
  }
}

/** After the measuring: the system's memory, then it is closed and its point summarized. */
async function closeLive(l: Live, tks: Tokenizer[], runs: number, queryCount: number): Promise<void> {
  if (l.sys?.pid !== undefined) {
    const mem = processMemory(l.sys.pid);
    if (mem) {
      l.point.rss_mb = mem.rss_mb;
      l.point.rss_peak_mb = mem.peak_mb;
    }
  }
  await l.sys?.close().catch(() => {});
  summarize(l, tks, runs, queryCount);
  l.point.wall_ms = round3(performance.now() - l.t0);
}

/** Warm-up, then `runs` passes: each query goes to every live system in turn. */
async function measureInterleaved(
  lives: Live[],
  queries: readonly GoldenQuery[],
  c: {
    runs: number;
    warmup: number;
    limit: number;
    detail: Detail;
    timeoutMs: number;
    pointTimeoutMs: number;
    n: number;
    progress: (s: string) => void;
  },
): Promise<void> {
  const active = () => lives.filter((l) => l.point.ok && l.sys);
  const total = c.runs * queries.length;
  const step = async (l: Live, q: GoldenQuery | null, timed: boolean): Promise<void> => {
    const sys = l.sys!;
    const left = l.deadlineAt - Date.now();
    if (left <= 0) {
      fail(l, `exceeded the per-point deadline of ${c.pointTimeoutMs} ms during the queries (${l.done} of ${total} calls done)`);
      await sys.close().catch(() => {});
      l.sys = undefined;
      return;
    }
    try {
      if (!sys.discover) {
        // direct: a full relisting (every page) stands for its "discovery", every DIRECT_EVERY-th query
        if (q === null || queries.indexOf(q) % DIRECT_EVERY === 0) {
          const ms = await withDeadline(sys.relist(), l.deadlineAt, 'relist', () => {});
          if (timed) l.timed.push(ms);
        }
        return;
      }
      if (q === null) {
        await sys.discover(queries[0].query, { limit: c.limit, detail: c.detail, timeoutMs: Math.min(c.timeoutMs, left) });
        return;
      }
      const d = await sys.discover(q.query, { limit: c.limit, detail: c.detail, timeoutMs: Math.min(c.timeoutMs, left) });
      if (d.isError || d.text === '') {
        l.point.errors++;
        return;
      }
      if (timed) l.timed.push(d.ms);
      if (!l.texts.has(q.id)) l.texts.set(q.id, d.text);
    } catch (e) {
      if (e instanceof Deadline) {
        fail(l, `exceeded the per-point deadline of ${c.pointTimeoutMs} ms during the queries (${l.done} of ${total} calls done)`);
        await sys.close().catch(() => {});
        l.sys = undefined;
      } else l.point.errors++;
    }
  };
  for (let w = 0; w < c.warmup; w++) for (const l of active()) await step(l, null, false);
  for (let r = 0; r < c.runs; r++) {
    for (const q of queries) {
      for (const l of active()) {
        l.done++;
        c.progress(`scale N=${c.n} ${l.spec.name}: call ${l.done}/${total}`);
        await step(l, q, true);
      }
    }
  }
}

/** Token and latency figures of one point from what was collected. */
function summarize(l: Live, tks: readonly Tokenizer[], runs: number, queryCount: number): void {
  const p = l.point;
  if (l.timed.length > 0) {
    p.latency_of =
      l.sys?.discover || l.texts.size > 0
        ? 'the discovery tool (client-measured)'
        : `a full tools/list of every upstream (all pages), at every ${DIRECT_EVERY}th query of each of ${runs} passes`;
    p.latency = {
      n: l.timed.length,
      p50_ms: round3(percentile(l.timed, 50)),
      p99_ms: round3(percentile(l.timed, 99)),
      max_ms: round3(Math.max(...l.timed)),
    };
  }
  if (l.texts.size > 0) {
    p.response_tokens = {};
    p.break_even_calls = {};
    for (const tk of tks) {
      const counts = [...l.texts.values()].map((t) => tk.count(t));
      const m = mean(counts);
      p.response_tokens[tk.name] = { n: counts.length, p50: percentile(counts, 50), p95: percentile(counts, 95), mean: round3(m) };
      const saved = (p.full_menu_tokens?.[tk.name] ?? 0) - (p.menu_tokens?.[tk.name] ?? 0);
      p.break_even_calls[tk.name] = saved > 0 && m > 0 ? round3(saved / m) : null;
    }
    if (p.ok && l.texts.size < queryCount) p.errors = Math.max(p.errors, queryCount - l.texts.size);
  }
}
