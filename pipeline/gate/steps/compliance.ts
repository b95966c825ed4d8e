/**
 * 12. compliance: `mcpgauge comply` grades the proxy under test (the cell's own instance over
 * HTTP, or a second instance of the same stdio command) on the era(s) it speaks; the step fails
 * when a revision's conformance grade is below `compliance.min_grade` of the gate config, or when
 * no grade can be given (coverage under 50%). Runs last: its invasive probes (malformed and
 * over-long messages) cannot disturb the steps before it.
 */
import { comply } from '../../comply/comply.ts';
import { parseSelection } from '../../comply/select.ts';
import { atLeast } from '../../comply/grade.ts';
import type { Target } from '../../comply/server-target.ts';
import type { McpTarget } from '../../mcp/client.ts';
import type { StepDef } from '../types.ts';
import { allowedEnv } from '../../util/proc.ts';

/** The comply prober's view of how the gate reaches the proxy (legacy SSE is not probed by comply). */
export function complyTarget(t: McpTarget): Target | null {
  if (t.kind === 'http') return { kind: 'http', url: t.url, headers: { ...(t.headers ?? {}) } };
  if (t.kind === 'stdio') return { kind: 'stdio', command: t.command, args: [...(t.args ?? [])], env: { ...(t.env ?? allowedEnv()) }, cwd: t.cwd };
  return null;
}

/** Header values that must not be echoed (API keys): comply scrubs them from every finding. */
function secretsOf(t: McpTarget): string[] {
  const out: string[] = [];
  if (t.kind !== 'stdio') for (const v of Object.values(t.headers ?? {})) out.push(v, v.replace(/^Bearer\s+/i, ''));
  return out.filter((s) => s.length >= 4);
}

export const step: StepDef = {
  meta: { name: 'compliance', title: 'spec-compliance grade at or above the configured minimum' },
  async run(ctx) {
    const c = ctx.cfg.compliance;
    if (!c) return { status: 'skipped', reason: 'no "compliance" block in the gate config' };
    const target = complyTarget(ctx.proxy.target);
    if (!target) return { status: 'not_applicable', reason: `the proxy is reached over ${ctx.proxy.target.kind}, which the compliance prober does not probe` };
    const { report } = await comply(target, {
      spec: c.spec_version,
      timeoutMs: ctx.cfg.timeouts.step_ms,
      startupTimeoutMs: ctx.cfg.timeouts.ready_ms,
      selection: parseSelection(undefined, c.skip.length ? c.skip.join(',') : undefined),
      invasive: true,
      secrets: secretsOf(ctx.proxy.target),
    });
    const runs = report.runs.map((r) => ({
      revision: r.revision,
      wire: r.wire,
      grade: r.conformance.grade,
      score: r.conformance.score,
      coverage: r.conformance.coverage,
      security_grade: r.security.grade,
      failing: r.results.filter((x) => x.status === 'fail').map((x) => `${x.meta.id} [${x.meta.severity}]`),
    }));
    const evidence = { min_grade: c.min_grade, era: report.era, runs, warnings: report.warnings, provenance: 'measured' };
    if (runs.length === 0) return { status: 'fail', reason: `the compliance prober graded no revision (${report.era.reason})`, evidence };
    const summary = runs.map((r) => `${r.revision}/${r.wire}: ${r.grade ?? 'no grade'}${r.score === null ? ` (coverage ${Math.round(r.coverage * 100)}%)` : ` (${r.score})`}`).join(', ');
    const low = runs.filter((r) => !atLeast(r.grade, c.min_grade));
    if (low.length) {
      const failing = low.flatMap((r) => r.failing).slice(0, 8).join(', ');
      return { status: 'fail', reason: `compliance below ${c.min_grade}: ${summary}${failing ? `; failing: ${failing}` : ''}`, evidence };
    }
    return { status: 'pass', reason: `compliance ${summary} >= ${c.min_grade}`, evidence };
  },
};
