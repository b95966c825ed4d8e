/**
 * Once per gate run: the yardstick itself. The fixture every cell fronts is graded by the
 * compliance prober on every wire the prober speaks (stdio, stateless streamable HTTP, stateful
 * streamable HTTP with legacy sessions, legacy HTTP+SSE) and every era it serves (auto: dual-era
 * stdio is graded on both revisions; HTTP is pinned to each revision; HTTP+SSE is 2025-11-25 only).
 * A fixture graded below `compliance.min_grade` fails the run: a proxy measured through a
 * non-conformant fixture proves nothing.
 */
import { comply } from '../comply/comply.ts';
import { atLeast, type Letter } from '../comply/output/grade.ts';
import type { RunReport, SpecChoice } from '../comply/types.ts';
import type { Target } from '../comply/gather/server-target.ts';
import { startFixtureProcess } from '../fixture/launch.ts';
import { TAG_ENV, stdioFixtureArgv } from './cell-fixtures.ts';
import { allowedEnv } from '../util/proc.ts';
import { LEGACY_REVISION, MODERN_REVISION } from '../mcp/protocol.ts';
import type { GateConfig } from './config.ts';

/** resources and prompts on, so their checks are evaluated too */
const FEATURES = { FIXTURE_FEATURES: 'resources,prompts' };

export interface YardstickRun {
  wire: 'stdio' | 'http-stateless' | 'http-stateful' | 'http-sse';
  revision: string;
  grade: Letter | null;
  score: number | null;
  coverage: number;
  evaluated: number;
  failing: string[];
}

export interface YardstickResult {
  status: 'pass' | 'fail' | 'skipped';
  reason: string;
  min_grade?: Letter;
  runs: YardstickRun[];
  not_probed: string[];
  duration_ms: number;
  provenance: 'measured';
}

function row(wire: YardstickRun['wire'], r: RunReport): YardstickRun {
  return {
    wire,
    revision: r.revision,
    grade: r.conformance.grade,
    score: r.conformance.score,
    coverage: r.conformance.coverage,
    evaluated: r.conformance.evaluated,
    failing: r.results.filter((x) => x.status === 'fail').map((x) => `${x.id} [${x.meta.severity}]`),
  };
}

/**
 * `fixtureEnv`: extra fixture environment (tests: a FIXTURE_BREAK knob shows the step can fail);
 * `tag`: the run's MCPGAUGE_GATE_TAG value for the fixtures started here (found by the sweep).
 */
export async function gradeYardstick(
  cfg: GateConfig,
  o: { fixtureEnv?: Record<string, string>; tag?: string } = {},
): Promise<YardstickResult> {
  const env = { ...FEATURES, ...o.fixtureEnv, ...(o.tag ? { [TAG_ENV]: o.tag } : {}) };
  const t0 = performance.now();
  const c = cfg.compliance;
  const base = { runs: [] as YardstickRun[], not_probed: [] as string[], provenance: 'measured' as const };
  if (!c) return { ...base, status: 'skipped', reason: 'no "compliance" block in the gate config', duration_ms: 0 };
  const opts = (spec: SpecChoice) => ({
    spec,
    timeoutMs: cfg.timeouts.step_ms,
    startupTimeoutMs: cfg.timeouts.ready_ms,
    selection: { only: [] as string[], skip: [...c.skip] },
    invasive: true,
    secrets: [] as string[],
  });
  const runs: YardstickRun[] = [];
  const [command, ...args] = stdioFixtureArgv();
  const stdio: Target = { kind: 'stdio', command, args, env: allowedEnv(env) };
  for (const r of (await comply(stdio, opts('auto'))).report.runs) runs.push(row('stdio', r));
  for (const [wire, transport, extra, specs] of [
    ['http-stateless', 'streamable-http', ['--stateless'], [LEGACY_REVISION, MODERN_REVISION]],
    ['http-stateful', 'streamable-http', [], [LEGACY_REVISION]],
    ['http-sse', 'sse', [], [LEGACY_REVISION]],
  ] as const) {
    const fx = await startFixtureProcess({ transport, args: [...extra], env, readyTimeoutMs: cfg.timeouts.ready_ms });
    try {
      for (const spec of specs)
        for (const r of (await comply({ kind: 'http', url: fx.url, headers: {} }, opts(spec))).report.runs) runs.push(row(wire, r));
    } finally {
      await fx.stop();
    }
  }
  const summary = runs.map((r) => `${r.wire}/${r.revision}: ${r.grade ?? 'no grade'}${r.score === null ? '' : ` (${r.score})`}`).join(', ');
  const low = runs.filter((r) => !atLeast(r.grade, c.min_grade));
  const duration_ms = Math.round(performance.now() - t0);
  if (low.length) {
    const failing = low
      .flatMap((r) => r.failing)
      .slice(0, 8)
      .join(', ');
    return {
      ...base,
      runs,
      status: 'fail',
      min_grade: c.min_grade,
      reason: `the fixture itself grades below ${c.min_grade}: ${summary}${failing ? `; failing: ${failing}` : ''}`,
      duration_ms,
    };
  }
  return { ...base, runs, status: 'pass', min_grade: c.min_grade, reason: `fixture ${summary} >= ${c.min_grade}`, duration_ms };
}
