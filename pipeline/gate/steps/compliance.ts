/**
 * 13. compliance: `mcpgauge comply` grades the proxy under test (the cell's own instance over
 * HTTP, or a second instance of the same stdio command) on the era(s) it speaks; with
 * `spec_version: auto` a cell judges the revision of its own era (when the proxy speaks it). The
 * step fails when a judged revision's conformance grade is below `compliance.min_grade` of the
 * gate config, or when no grade can be given (coverage under 50%). Runs last: its invasive probes (malformed and
 * over-long messages) cannot disturb the steps before it.
 */
import { comply } from '../../comply/comply.ts';
import { parseSelection } from '../../comply/judge/select.ts';
import { atLeast } from '../../comply/output/grade.ts';
import type { Target } from '../../comply/gather/server-target.ts';
import type { McpTarget } from '../../mcp/client.ts';
import type { StepDef } from '../types.ts';
import { allowedEnv } from '../../util/proc.ts';
import { capText, severityText } from '../../comply/render/common.ts';
import type { Grade, WireKind } from '../../comply/types.ts';
import type { Revision } from '../../mcp/protocol.ts';

/** The comply prober's view of how the gate reaches the proxy (legacy SSE is not probed by comply). */
export function complyTarget(t: McpTarget): Target | null {
  if (t.kind === 'http') return { kind: 'http', url: t.url, headers: { ...(t.headers ?? {}) } };
  if (t.kind === 'stdio')
    return { kind: 'stdio', command: t.command, args: [...(t.args ?? [])], env: { ...(t.env ?? allowedEnv()) }, cwd: t.cwd };
  return null;
}

/** Header values that must not be echoed (API keys): comply scrubs them from every finding. */
function secretsOf(t: McpTarget): string[] {
  const out: string[] = [];
  if (t.kind !== 'stdio') for (const v of Object.values(t.headers ?? {})) out.push(v, v.replace(/^Bearer\s+/i, ''));
  return out.filter((s) => s.length >= 4);
}

/** One graded revision of the proxy, as the step records it in `evidence.runs` (read by summary.md). */
export interface ComplianceRun {
  revision: Revision;
  /** how the prober reached the proxy (its own endpoint: http, or stdio for a stdio-served proxy); not the cell's fixture transport */
  wire: WireKind;
  grade: Grade['grade'];
  score: number | null;
  /** the letter of the score before the MUST cap */
  uncapped: Grade['uncapped'];
  cap: Grade['cap'];
  cap_applied: boolean;
  /** ids of the failing direct-MUST checks (the ones that cap) */
  failing_must: string[];
  coverage: number;
  security_grade: Grade['grade'];
  /** every failing check of this revision, `id [severity]` (`MUST via <basis>, weighed as SHOULD` for one that does not cap) */
  failing: string[];
}

/** The runs a compliance step judged (an older report without the cap fields reads as no cap). */
export function complianceRuns(evidence: Record<string, unknown>): ComplianceRun[] {
  const runs = Array.isArray(evidence.runs) ? (evidence.runs as Partial<ComplianceRun>[]) : [];
  return runs.map(
    (r) =>
      ({
        uncapped: r.grade ?? null,
        cap: null,
        cap_applied: false,
        failing_must: [],
        failing: [],
        security_grade: null,
        ...r,
      }) as ComplianceRun,
  );
}

/** Letter, score, cap and failing MUSTs of one revision, together: `2026-07-28 over http: C (score 92; 2 failing MUSTs: a, b; capped at C from A)`. */
export function complianceRunText(r: ComplianceRun): string {
  const where = `${r.revision} over ${r.wire}`;
  if (r.grade === null) return `${where}: no grade (coverage ${Math.round(r.coverage * 100)}%, a grade needs 50%)`;
  const cap = capText({ grade: r.grade, uncapped: r.uncapped, cap: r.cap, capApplied: r.cap_applied, failingMust: r.failing_must });
  return `${where}: ${r.grade} (score ${r.score}; ${cap})`;
}

export const step: StepDef = {
  meta: { name: 'compliance', title: 'spec-compliance grade at or above the configured minimum' },
  async run(ctx) {
    const c = ctx.cfg.compliance;
    if (!c) return { status: 'skipped', reason: 'no "compliance" block in the gate config' };
    const target = complyTarget(ctx.proxy.target);
    if (!target)
      return {
        status: 'not_applicable',
        reason: `the proxy is reached over ${ctx.proxy.target.kind}, which the compliance prober does not probe`,
      };
    const { report } = await comply(target, {
      spec: c.spec_version,
      timeoutMs: ctx.cfg.timeouts.step_ms,
      startupTimeoutMs: ctx.cfg.timeouts.ready_ms,
      selection: parseSelection(undefined, c.skip.length ? c.skip.join(',') : undefined),
      invasive: true,
      secrets: secretsOf(ctx.proxy.target),
    });
    const graded: ComplianceRun[] = report.runs.map((r) => ({
      revision: r.revision,
      wire: r.wire,
      grade: r.conformance.grade,
      score: r.conformance.score,
      uncapped: r.conformance.uncapped,
      cap: r.conformance.cap,
      cap_applied: r.conformance.capApplied,
      failing_must: [...r.conformance.failingMust],
      coverage: r.conformance.coverage,
      security_grade: r.security.grade,
      failing: r.results.filter((x) => x.status === 'fail').map((x) => `${x.meta.id} [${severityText(x.meta)}]`),
    }));
    // a cell judges the revision of its own era (the other revision of a dual-era proxy is the
    // other era's cell's to judge; kept in the evidence); a pinned spec_version, or a proxy that
    // does not speak the cell's era, is judged on what was graded
    const own = c.spec_version === 'auto' ? graded.filter((r) => r.revision === ctx.cell.era) : [];
    const runs = own.length ? own : graded;
    const other_runs = own.length ? graded.filter((r) => !own.includes(r)) : [];
    const evidence = {
      min_grade: c.min_grade,
      era: report.era,
      cell_era: ctx.cell.era,
      runs,
      ...(other_runs.length ? { other_runs } : {}),
      warnings: report.warnings,
      provenance: 'measured',
    };
    if (runs.length === 0) return { status: 'fail', reason: `the compliance prober graded no revision (${report.era.reason})`, evidence };
    const low = runs.filter((r) => !atLeast(r.grade, c.min_grade));
    if (low.length)
      return { status: 'fail', reason: `compliance below ${c.min_grade}: ${runs.map(complianceRunText).join('; ')}`, evidence };
    return { status: 'pass', reason: `compliance >= ${c.min_grade}: ${runs.map(complianceRunText).join('; ')}`, evidence };
  },
};
