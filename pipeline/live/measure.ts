/**
 * The measurement loop of the live stage: readiness probes, then per detail level the warm-up
 * calls and the measured passes over the golden queries (calls counted by purpose); or, when
 * discovery is not measured (pass-through, --golden none), the latency of a cheap call.
 */
import type { McpConnection } from '../mcp/client.ts';
import type { GoldenSet } from '../types.ts';
import type { LiveError, LiveReport } from '../report/index.ts';
import { cheapCallLatency } from './passthrough.ts';
import { measureDetail, waitUntilIndexed, type DetailRun, type DiscoveryCall } from './calls.ts';
import { discoveryCall, type CallPlan } from './call-plan.ts';
import type { LiveSettings } from './settings.ts';
import type { LiveOptions } from './types.ts';

/** calls by purpose: readiness probes and warm-up calls never count towards the measured figures */
export type CallCounts = Record<'readiness' | 'warmup' | 'measured', { n: number; errors: number }>;

export interface Measured {
  counts: CallCounts;
  detailRuns: DetailRun[];
  discovery: NonNullable<LiveReport['discovery']>;
  cheap?: Awaited<ReturnType<typeof cheapCallLatency>>;
}

export interface MeasureInput {
  conn: McpConnection;
  s: LiveSettings;
  plan: CallPlan;
  style: 'discovery' | 'passthrough';
  golden: GoldenSet;
  /** readiness probes are sent to every target but the embedded one */
  probeReadiness: boolean;
  opts: LiveOptions;
  errors: LiveError[];
  notComputed: { what: string; reason: string }[];
  log: (m: string) => void;
}

export async function measureCalls(m: MeasureInput): Promise<Measured> {
  const { s } = m;
  const counts: CallCounts = { readiness: { n: 0, errors: 0 }, warmup: { n: 0, errors: 0 }, measured: { n: 0, errors: 0 } };
  const detailRuns: DetailRun[] = [];
  let discovery: Measured['discovery'];
  if (m.style === 'passthrough') {
    discovery = {
      status: 'not_applicable',
      reason: 'pass-through: the proxy lists the upstream tools directly; no golden query is sent to an arbitrary tool',
    };
  } else if (s.noGolden) {
    discovery = { status: 'not_measured', reason: '--golden none: no discovery queries were sent' };
  } else {
    discovery = { status: 'measured' };
    await measureDiscovery(m, counts, detailRuns);
  }
  if (discovery.status === 'measured') return { counts, detailRuns, discovery };
  // menus and the latency of a cheap call only
  const cheap = await cheapCallLatency(m.conn, s.runs, s.warmup, s.callTimeoutMs);
  counts.warmup.n += s.warmup;
  counts.measured.n += s.runs;
  counts.measured.errors += cheap.errors.length;
  for (const e of cheap.errors.slice(0, 3)) m.errors.push({ where: 'cheap_call', message: e });
  m.notComputed.push({ what: 'responses, retrieval, break-even', reason: discovery.reason ?? '' });
  return { counts, detailRuns, discovery, cheap };
}

/** Readiness probes (external targets), then warm-up + measured passes per detail level. */
async function measureDiscovery(m: MeasureInput, counts: CallCounts, detailRuns: DetailRun[]): Promise<void> {
  const { s, golden } = m;
  const base = discoveryCall(m.conn, s, m.plan, m.opts.turns);
  let phase: keyof CallCounts = 'readiness';
  const call: DiscoveryCall = async (q, d) => {
    const r = await base(q, d);
    counts[phase].n++;
    if (!r.ok) counts[phase].errors++;
    return r;
  };
  if (m.probeReadiness && golden.queries.length > 0) await waitUntilIndexed(call, golden, m.opts.readyTimeoutMs ?? 10_000, m.errors);
  for (const detail of m.plan.details) {
    phase = 'warmup';
    const warm = s.warmup;
    let seen = 0;
    // measureDetail makes the warm-up calls first, then the measured passes
    const phased: DiscoveryCall = async (q, d) => {
      phase = seen++ < Math.min(warm, golden.queries.length > 0 ? warm : 0) ? 'warmup' : 'measured';
      return call(q, d);
    };
    detailRuns.push(await measureDetail(phased, detail, golden, { runs: s.runs, warmup: s.warmup }, m.errors, m.log));
  }
}
