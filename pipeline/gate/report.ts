/**
 * The gate's outputs: gate-report.json (validated against datasets/schemas/gate-report.schema.json
 * before it is written), summary.md (also appended to $GITHUB_STEP_SUMMARY when set) and
 * junit.xml (one testcase per cell/step). Each file is written atomically.
 */
import { appendFileSync } from 'node:fs';
import type { YardstickResult } from './yardstick.ts';
import { join } from 'node:path';
import { REPO_ROOT } from '../constants.ts';
import type { ValidateFunction } from 'ajv';
import { writeFileSet } from '../util/fs.ts';
import { md, xml } from '../util/escape.ts';
import { compileSchemaFile, describeAjvError } from '../util/schema.ts';
import { harnessError } from './config.ts';
import type { CellResult, StepStatus } from './types.ts';
import type { PinnedProtocol } from '../mcp/protocol.ts';
import { formatRate } from './repeat.ts';
import { CELLS } from './cells.ts';
import { countsText, verdictWord } from './assemble.ts';
import { complianceRuns } from './steps/compliance.ts';
import { capText } from '../comply/render/common.ts';
import { atLeast } from '../comply/output/grade.ts';
import type { Letter } from '../comply/output/grade.ts';

export const GATE_REPORT_SCHEMA = join(REPO_ROOT, 'datasets', 'schemas', 'gate-report.schema.json');

export interface GateReport {
  schema_version: 1;
  tool: 'mcpgauge gate';
  generated_at: string;
  /** `interrupted`: a partial report (a signal or a deadline ended the run; see `interrupted`) */
  verdict: 'pass' | 'fail' | 'interrupted';
  exit_code: 0 | 1 | 2 | 130 | 143;
  /** every process the run started carried MCPGAUGE_GATE_TAG=<run_id>/... */
  run_id?: string;
  proxy: { description: string; style?: string };
  config: { file: string };
  options: {
    jobs: number;
    allow_flaky: boolean;
    cells: string[];
    baseline: string | null;
    client_protocol: PinnedProtocol;
    retries: number;
    repeat?: number;
  };
  steps: Array<{ order: number; name: string; title: string; optional: boolean; needs?: string[]; required?: boolean }>;
  cells: CellResult[];
  counts: { pass: number; fail: number; flaky: number; skipped: number; not_applicable?: number };
  failures: string[];
  advisories: string[];
  /** once per run: the fixture itself graded by the compliance prober (absent when no cell ran) */
  fixture_compliance?: YardstickResult;
  /** a partial report: what ended the run, in which phase, which cells did not finish */
  interrupted?: {
    reason: string;
    signal?: 'SIGINT' | 'SIGTERM';
    phase: 'setup' | 'preflight' | 'fixture-grade' | 'cells' | 'report';
    exit_code: 2 | 130 | 143;
    unfinished_cells?: string[];
    killed_processes?: number;
  };
  /** only in a report assembled by `gate merge` from fragments (merge.ts) */
  merged_from?: MergedFrom;
  timing: { total_ms: number; provenance: 'measured'; deadline_ms?: number; fixture_start_ms?: number };
}

export interface MergedFrom {
  fragments: Array<{
    file: string;
    id: string | null;
    kind: 'cell' | 'yardstick' | null;
    status: 'accepted' | 'rejected' | 'duplicate' | 'extra';
    reason?: string;
  }>;
  digests: { config: string; gate: string; proxy: string[]; options: string[] };
}

let validator: ValidateFunction | undefined;

export function validateGateReport(r: unknown): string[] {
  validator ??= compileSchemaFile(GATE_REPORT_SCHEMA);
  return validator(r) ? [] : (validator.errors ?? []).map(describeAjvError);
}

export const STATUS_MARK: Record<StepStatus, string> = {
  pass: '✅',
  fail: '❌',
  flaky: '⚠️',
  skipped: '⏭️',
  not_applicable: '➖',
  blocked: '⛔',
};

/** A step's (or a cell's) reason as summary.md shows it: a skipped or not-applicable one says so before why. */
function stepReason(st: { status: string; reason: string }): string {
  const prefix = st.status === 'skipped' ? 'skipped' : st.status === 'not_applicable' ? 'not applicable' : '';
  return prefix && !st.reason.toLowerCase().startsWith(prefix) ? `${prefix}: ${st.reason}` : st.reason;
}

function logLinks(logs: string[] | undefined): string {
  return logs?.length ? ` (logs: ${logs.map((l) => `[${l.split('/').pop()}](${l})`).join(', ')})` : '';
}

/** The compliance step's judged revisions, one row each, in the cell that measured them. */
function complianceTable(r: GateReport): string[] {
  const rows = r.cells.flatMap((c) => {
    const st = c.steps.find((s) => s.name === 'compliance');
    if (!st || (st.status !== 'pass' && st.status !== 'fail')) return [];
    const min = typeof st.evidence.min_grade === 'string' ? (st.evidence.min_grade as Letter) : null;
    return complianceRuns(st.evidence).map((x) => {
      const ok = min === null || atLeast(x.grade, min);
      const cap = capText({ grade: x.grade, uncapped: x.uncapped, cap: x.cap, capApplied: x.cap_applied, failingMust: x.failing_must });
      const others = x.failing.filter((f) => !x.failing_must.some((id) => f.startsWith(`${id} [`)));
      return `| ${c.id} | ${x.revision} | ${x.wire} | ${ok ? '✅' : '❌'} ${x.grade ?? 'no grade'} | ${x.score ?? `coverage ${Math.round(x.coverage * 100)}%`} | ${md(cap)} | ${md(others.join(', ')) || '-'} |`;
    });
  });
  if (!rows.length) return [];
  const min = r.cells.flatMap((c) => c.steps).find((s) => s.name === 'compliance' && typeof s.evidence.min_grade === 'string')
    ?.evidence.min_grade;
  return [
    '',
    `## Compliance of the proxy (each judged revision at or above ${min ?? 'the minimum'})`,
    '',
    "Graded by mcpgauge comply in each cell. Wire: how the prober reached the proxy (its own endpoint), not the cell's fixture transport. A cell judges the revision of its own era when the proxy speaks it.",
    '',
    '| Cell | Revision | Wire | Grade | Score | Failing MUSTs and cap | Other failing checks (no cap) |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ];
}

/** a network cell (cells.ts `network`): drawn in its own table, with its own steps */
const isNetworkCell = (id: string) => CELLS.some((c) => c.id === id && c.network === true);

/** What a network step's verdict carries (steps/network.ts `evidence.network`). */
interface NetworkVerdict {
  toxics: Array<{ type: string; stream: string; attributes: Record<string, number> }>;
  timeline_ms: Record<string, number>;
  call: { expect: string; deadline_ms: number; outcome: string; ms: number };
}
function networkVerdict(e: Record<string, unknown>): NetworkVerdict | undefined {
  const n = e.network as NetworkVerdict | undefined;
  return n && Array.isArray(n.toxics) ? n : undefined;
}
const toxicsText = (n: NetworkVerdict) =>
  n.toxics
    .map(
      (t) =>
        `${t.type} ${t.stream} ${Object.entries(t.attributes)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`,
    )
    .join(' + ');

/** The network cells: a table of their steps, then each fault's toxics, timeline and outcome. */
function networkSection(r: GateReport, table: (cells: CellResult[], steps: GateReport['steps']) => string[]): string[] {
  const cells = r.cells.filter((c) => isNetworkCell(c.id));
  if (!cells.length) return [];
  // columns: the network graph's steps in its own order (steps/index.ts NETWORK_STEPS)
  const steps = cells[0].steps.map((s) => ({ order: s.order, name: s.name, title: s.name, optional: false }));
  const out = ['', '## Network cells (the fixture behind toxiproxy)', '', ...table(cells, steps)];
  const rows = cells.flatMap((c) =>
    c.steps.flatMap((st) => {
      const n = networkVerdict(st.evidence);
      if (!n) return [];
      const tl = Object.entries(n.timeline_ms)
        .map(([k, v]) => `${k.replace(/_/g, ' ')} +${v}`)
        .join(', ');
      return [
        `| ${c.id} | ${STATUS_MARK[st.status]} ${st.name} | ${md(toxicsText(n))} | ${tl} | ${md(`${n.call.outcome} after ${n.call.ms} ms (expected: ${n.call.expect} within ${n.call.deadline_ms} ms)`)} |`,
      ];
    }),
  );
  if (rows.length)
    out.push(
      '',
      "Each fault: the toxics set on the link to the fixture and when (ms from the step's start), and what the proxy answered.",
      '',
      '| Cell | Fault | Toxics | Timeline (ms) | Proxy answered |',
      '|---|---|---|---|---|',
      ...rows,
    );
  return out;
}

/** The "Not green, cell by cell" section: every mark that is not a pass, with its reason. */
function notGreenSection(r: GateReport): string[] {
  const out: string[] = [];
  // every mark that is not ✅, with its reason, under the cell it belongs to; a skipped or
  // not-applicable step with the same reason in every cell that ran is said once
  const notGreen = (c: CellResult) => c.steps.filter((s) => s.status !== 'pass');
  const ranCells = r.cells.filter((c) => c.steps.length && c.attempts > 0);
  const sameEverywhere = (st: CellResult['steps'][number]) =>
    ranCells.length > 1 &&
    (st.status === 'skipped' || st.status === 'not_applicable') &&
    ranCells.every((c) => c.steps.some((x) => x.name === st.name && x.status === st.status && x.reason === st.reason));
  const everywhere = ranCells[0] ? notGreen(ranCells[0]).filter(sameEverywhere) : [];
  const lines: string[] = [];
  for (const c of r.cells) {
    const steps = notGreen(c).filter((st) => !(ranCells.includes(c) && everywhere.some((e) => e.name === st.name)));
    if (c.status === 'pass' && !steps.length) continue;
    const attempts = `${c.required ? 'required' : 'optional'}${c.attempts ? `, ${c.attempts} attempt${c.attempts === 1 ? '' : 's'}` : ''}`;
    if (!c.steps.length || c.status === 'skipped' || c.status === 'not_applicable') {
      lines.push(`- ${STATUS_MARK[c.status]} **${c.id}**: ${md(stepReason(c))} (${attempts})`);
      continue;
    }
    lines.push(`- ${STATUS_MARK[c.status]} **${c.id}**: ${c.status} (${attempts})`);
    for (const st of steps) {
      const advisory = st.advisory ? ' (advisory: does not fail the cell)' : '';
      const logs = st.status === 'fail' || st.status === 'flaky' ? logLinks(st.logs) : '';
      lines.push(`  - ${STATUS_MARK[st.status]} step ${st.order} ${st.name}${advisory}: ${md(stepReason(st))}${logs}`);
    }
  }
  if (lines.length || everywhere.length) {
    out.push('', '## Not green, cell by cell', '');
    if (everywhere.length)
      out.push(
        `- In every cell that ran (${ranCells.length}):`,
        ...everywhere.map((st) => `  - ${STATUS_MARK[st.status]} step ${st.order} ${st.name}: ${md(stepReason(st))}`),
      );
    out.push(...lines);
  }
  return out;
}

/** The yardstick section: the fixture's own compliance grade, when it was measured. */
function yardstickSection(r: GateReport): string[] {
  const out: string[] = [];
  const y = r.fixture_compliance;
  if (y) {
    out.push('', `## The yardstick: the fixture's own compliance grade (${y.status})`, '', md(y.reason), '');
    if (y.runs.length) {
      out.push('| Wire | Revision | Grade | Score | Checks evaluated | Failing |', '|---|---|---|---|---|---|');
      for (const x of y.runs)
        out.push(
          `| ${x.wire} | ${x.revision} | ${x.grade ?? 'no grade'} | ${x.score ?? '-'} | ${x.evaluated} | ${md(x.failing.join(', ')) || '-'} |`,
        );
    }
    if (y.not_probed.length) out.push('', `Not probed: ${md(y.not_probed.join('; '))}.`);
  }
  return out;
}

export function renderSummary(r: GateReport): string {
  const out: string[] = [];
  const head = r.verdict === 'interrupted' ? '⏹️ INTERRUPTED (partial report)' : `${r.verdict === 'pass' ? '✅' : '❌'} ${verdictWord(r)}`;
  out.push(`# mcpgauge release gate: ${head}`, '');
  if (r.interrupted)
    out.push(
      `Interrupted: ${md(r.interrupted.reason)} during the ${r.interrupted.phase} phase (exit ${r.interrupted.exit_code}); unfinished cells: ${r.interrupted.unfinished_cells?.join(', ') || 'none'}.`,
      '',
    );
  const ran = r.cells.filter((c) => c.attempts > 0).length;
  out.push(`Proxy: ${md(r.proxy.description)}${r.proxy.style ? ` (${r.proxy.style} style)` : ''}.`, '');
  out.push(
    `${r.cells.length} cells: ${countsText(r.counts)}. ${ran} ran, up to ${r.options.jobs} in parallel, ${(r.timing.total_ms / 1000).toFixed(1)} s wall (measured).`,
    '',
  );
  const table = (cells: CellResult[], steps: GateReport['steps']): string[] => [
    `| Cell | Required | Status | Attempts | Time | ${steps.map((s) => `${s.order} ${s.name}`).join(' | ')} |`,
    `|---|---|---|---|---|${steps.map(() => '---').join('|')}|`,
    ...cells.map((c) => {
      const marks = steps.map((s) => {
        const st = c.steps.find((x) => x.name === s.name);
        // --repeat N (N > 1): the measured pass rate beside the mark, `k/N [lo, hi]` (Wilson 95 %)
        return st ? `${STATUS_MARK[st.status]}${st.rate ? ` ${formatRate(st.rate)}` : ''}` : '';
      });
      return `| ${c.id} | ${c.required ? 'yes' : 'no'} | ${STATUS_MARK[c.status]} ${c.status} | ${c.attempts} | ${(c.duration_ms / 1000).toFixed(1)} s | ${marks.join(' | ')} |`;
    }),
  ];
  // the main table: the main cells and steps; the network cells have their own (networkSection)
  const mainSteps = r.steps.filter(
    (s) =>
      r.cells.some((c) => !isNetworkCell(c.id) && c.steps.some((x) => x.name === s.name)) ||
      !r.cells.some((c) => isNetworkCell(c.id) && c.steps.some((x) => x.name === s.name)),
  );
  const mainCells = r.cells.filter((c) => !isNetworkCell(c.id));
  if (mainCells.length) out.push(...table(mainCells, mainSteps));
  out.push(...networkSection(r, table));
  out.push(
    '',
    `Legend: ${Object.entries(STATUS_MARK)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}.`,
  );
  if ((r.options.repeat ?? 1) > 1)
    out.push(
      '',
      `Each cell ran ${r.options.repeat} times: k/N = runs passed / runs in which the step ran, [lo, hi] = its Wilson 95% interval; a step that passed in some runs only is flaky.`,
    );

  out.push(...notGreenSection(r));
  const cellIds = new Set(r.cells.map((c) => c.id));
  const runFailures = r.failures.filter((f) => !cellIds.has(f.slice(0, f.indexOf(':'))));
  if (runFailures.length) out.push('', '## Failures of the run (not of one cell)', '', ...runFailures.map((f) => `- ${md(f)}`));
  out.push(...complianceTable(r));
  if (r.advisories.length) out.push('', '## Advisories (optional cells, advisory steps)', '', ...r.advisories.map((a) => `- ${md(a)}`));
  out.push(...yardstickSection(r));
  return `${out.join('\n')}\n`;
}

export function renderJunit(r: GateReport): string {
  const cases = r.cells.flatMap((c) =>
    (c.steps.length
      ? c.steps
      : [{ name: 'cell', order: 0, status: c.status, reason: c.reason, duration_ms: c.duration_ms, evidence: {} }]
    ).map((s) => ({ c, s })),
  );
  const failures = cases.filter(({ s }) => s.status === 'fail' || s.status === 'blocked').length;
  const skipped = cases.filter(({ s }) => s.status === 'skipped' || s.status === 'not_applicable').length;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="mcpgauge gate" tests="${cases.length}" failures="${failures}" skipped="${skipped}" time="${(r.timing.total_ms / 1000).toFixed(3)}">`,
  ];
  for (const c of r.cells) {
    const mine = cases.filter((x) => x.c === c);
    const f = mine.filter(({ s }) => s.status === 'fail' || s.status === 'blocked').length;
    const sk = mine.filter(({ s }) => s.status === 'skipped' || s.status === 'not_applicable').length;
    lines.push(
      `  <testsuite name="${xml(c.id)}" tests="${mine.length}" failures="${f}" skipped="${sk}" time="${(c.duration_ms / 1000).toFixed(3)}">`,
    );
    for (const { s } of mine) {
      const name = `${String(s.order).padStart(2, '0')} ${s.name}`;
      lines.push(`    <testcase classname="gate.${xml(c.id)}" name="${xml(name)}" time="${(s.duration_ms / 1000).toFixed(3)}">`);
      const rate = 'rate' in s ? s.rate : undefined;
      const net = networkVerdict(s.evidence);
      const props = [
        ...(rate
          ? [
              `<property name="pass_rate" value="${xml(formatRate(rate))}"/>`,
              `<property name="passes" value="${rate.passes}"/>`,
              `<property name="runs" value="${rate.runs}"/>`,
            ]
          : []),
        // a network verdict: the toxics that were set and when (ms from the step's start)
        ...(net
          ? [
              `<property name="toxics" value="${xml(toxicsText(net))}"/>`,
              ...Object.entries(net.timeline_ms).map(([k, v]) => `<property name="${xml(`${k}_ms`)}" value="${v}"/>`),
            ]
          : []),
      ];
      if (props.length) lines.push(`      <properties>${props.join('')}</properties>`);
      if (s.status === 'fail' || s.status === 'blocked') {
        const logs = 'logs' in s && s.logs ? `\nlogs: ${s.logs.join(', ')}` : '';
        lines.push(
          `      <failure message="${xml(s.reason)}" type="${s.status}">${xml(`${s.reason}${logs}\nevidence: ${JSON.stringify(s.evidence)}`)}</failure>`,
        );
      } else if (s.status === 'skipped' || s.status === 'not_applicable')
        lines.push(`      <skipped message="${xml(`${s.status}: ${s.reason}`)}"/>`);
      else if (s.status === 'flaky') lines.push(`      <system-out>${xml(`flaky: ${s.reason}`)}</system-out>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  const y = r.fixture_compliance;
  if (y && y.status !== 'skipped') {
    lines.push(
      `  <testsuite name="fixture-compliance" tests="1" failures="${y.status === 'fail' ? 1 : 0}" skipped="0" time="${(y.duration_ms / 1000).toFixed(3)}">`,
    );
    lines.push(
      `    <testcase classname="gate.fixture-compliance" name="the fixture grades at or above ${xml(y.min_grade ?? '')}" time="${(y.duration_ms / 1000).toFixed(3)}">`,
    );
    if (y.status === 'fail') lines.push(`      <failure message="${xml(y.reason)}" type="fail">${xml(y.reason)}</failure>`);
    lines.push('    </testcase>', '  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/** Validate, then write the three files (util/fs.ts writeFileSet: each atomically, gate-report.json last). A report that fails its schema is a harness error. */
export function writeGateOutputs(r: GateReport, outDir: string): { report: string; summary: string; junit: string } {
  const problems = validateGateReport(r);
  if (problems.length)
    throw harnessError(`gate report failed its schema (${problems.length} problem(s)): ${problems.slice(0, 3).join('; ')}`);
  const report = join(outDir, 'gate-report.json');
  const summary = join(outDir, 'summary.md');
  const junit = join(outDir, 'junit.xml');
  const text = renderSummary(r);
  // into the folder (a symlink followed, other files and logs/ kept), each file atomically, gate-report.json last
  writeFileSet(
    outDir,
    [
      { path: 'summary.md', data: text },
      { path: 'junit.xml', data: renderJunit(r) },
      { path: 'gate-report.json', data: `${JSON.stringify(r, null, 2)}\n` },
    ],
    '--out',
  );
  const gh = process.env.GITHUB_STEP_SUMMARY;
  if (gh) appendFileSync(gh, text);
  return { report, summary, junit };
}
