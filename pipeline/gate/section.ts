/**
 * The release gate's cell × step grid (a gate report, datasets/schemas/gate-report.schema.json),
 * coloured by status. Rendered next to a bench report's sections by `mcpgauge report`.
 */
import { sectionFor, html, fmtNum, rich, type ReportSection, type SectionInput, type TableRow } from '../report/index.ts';
import type { GateReport } from './report.ts';
import { countsText, verdictWord } from './assemble.ts';
import type { StepStatus } from './types.ts';

/** background / text colour per status (the page allows inline styles; readable in both themes) */
const COLOUR: Record<StepStatus, string> = {
  pass: 'background:#1a7f37;color:#fff',
  flaky: 'background:#d4a017;color:#000',
  fail: 'background:#c62828;color:#fff',
  blocked: 'background:#6b4e4e;color:#fff',
  skipped: 'background:#8a8f98;color:#fff',
  not_applicable: 'background:#c9ccd1;color:#000',
};

/** the word on the pill (short, so the 13 step columns fit); the title says it in full with the reason */
const LABEL: Record<StepStatus, string> = {
  pass: 'pass',
  flaky: 'flaky',
  fail: 'fail',
  blocked: 'blocked',
  skipped: 'skipped',
  not_applicable: 'n/a',
};

function pill(status: StepStatus, title: string) {
  return rich(
    html`<span class="gate-st" title="${status.replace('_', ' ')}: ${title}" style="${COLOUR[status]};display:inline-block;padding:2px 6px;border-radius:3px;font-size:11px;white-space:nowrap">${LABEL[status]}</span>`,
    status,
  );
}

export const gateSection: ReportSection<GateReport> = {
  id: 'gate',
  title: 'Release gate',
  provenanceKeys: ['gate'],
  schemaRefs: [
    'gate-report.schema.json#/properties/cells',
    'gate-report.schema.json#/$defs/step',
    'gate-report.schema.json#/properties/fixture_compliance',
  ],
  build(g) {
    const rows: TableRow[] = g.cells.map((c) => {
      const row: TableRow = {
        cell: c.id,
        required: c.required ? 'yes' : 'no',
        status: pill(c.status, c.reason),
        attempts: c.attempts,
        seconds: c.duration_ms / 1000,
      };
      for (const s of g.steps) {
        const st = c.steps.find((x) => x.name === s.name);
        row[`step_${s.name}`] = st ? pill(st.status, `${s.order} ${s.name}: ${st.reason}`) : '';
      }
      return row;
    });
    // the console's verdict word: a green gate with red optional cells says so (never a bare PASS)
    const verdict = g.verdict.toUpperCase();
    const word = verdictWord(g);
    const redOptional = word.startsWith(`${verdict} (`) ? word.slice(verdict.length + 2, -1) : '';
    const failing = g.cells.flatMap((c) =>
      c.steps.filter((s) => s.status === 'fail').map((s) => html`<b>${c.id}</b> step ${s.order} ${s.name}: ${s.reason}`),
    );
    return {
      tiles: [
        {
          label: 'Verdict',
          value: verdict,
          sub: `${redOptional ? `${redOptional}; ` : ''}exit code ${g.exit_code}`,
          provenance: 'measured',
        },
        {
          label: 'Cells green',
          value: `${g.counts.pass + (g.options.allow_flaky ? g.counts.flaky : 0)} / ${g.cells.length}`,
          sub: countsText(g.counts),
          provenance: 'measured',
        },
        {
          label: 'Wall time',
          value: `${fmtNum(g.timing.total_ms / 1000, 1)} s`,
          sub: `${g.options.jobs} cells in parallel`,
          provenance: 'measured',
        },
      ],
      blocks: [
        {
          kind: 'kv',
          items: [
            { label: 'Proxy under test', value: `${g.proxy.description}${g.proxy.style ? ` (${g.proxy.style} style)` : ''}` },
            { label: 'Generated', value: g.generated_at },
          ],
        },
        {
          kind: 'table',
          id: 'gate-grid',
          caption:
            'Each cell (fixture transport × protocol era) runs the steps in order; a failed step blocks only the steps that need it. Hover a mark for its reason (n/a = not applicable).',
          columns: [
            { key: 'cell', label: 'Cell', type: 'key' },
            { key: 'required', label: 'Required', type: 'text' },
            { key: 'status', label: 'Status', type: 'text' },
            { key: 'attempts', label: 'Attempts', type: 'int' },
            { key: 'seconds', label: 'Time (s)', type: 'num', digits: 1 },
            ...g.steps.map((s) => ({ key: `step_${s.name}`, label: `${s.order} ${s.name}`, type: 'text' as const })),
          ],
          rows,
          rowClasses: g.cells.map((c) => (c.status === 'fail' ? 'err' : '')),
        },
        ...(failing.length ? [{ kind: 'list' as const, items: failing }] : []),
        ...(g.fixture_compliance?.runs.length
          ? [
              {
                kind: 'table' as const,
                id: 'gate-yardstick',
                caption: `The yardstick, graded once per run: the fixture itself under the compliance prober (${g.fixture_compliance.status}: ${g.fixture_compliance.reason}). Not probed: ${g.fixture_compliance.not_probed.join('; ') || 'nothing'}.`,
                columns: [
                  { key: 'wire', label: 'Wire', type: 'key' as const },
                  { key: 'revision', label: 'Revision', type: 'text' as const },
                  { key: 'grade', label: 'Grade', type: 'text' as const },
                  { key: 'score', label: 'Score', type: 'num' as const, digits: 0 },
                  { key: 'evaluated', label: 'Checks evaluated', type: 'int' as const },
                  { key: 'failing', label: 'Failing', type: 'text' as const },
                ],
                rows: g.fixture_compliance.runs.map((r) => ({
                  wire: r.wire,
                  revision: r.revision,
                  grade: r.grade ?? 'no grade',
                  score: r.score,
                  evaluated: r.evaluated,
                  failing: r.failing.join(', '),
                })),
                rowClasses: g.fixture_compliance.runs.map((r) => (r.failing.length ? 'err' : '')),
              },
            ]
          : []),
      ],
    };
  },
};

/** The gate section bound to its report, for renderDashboard's extra sections. */
export function gateSectionInput(g: GateReport): SectionInput {
  return sectionFor(gateSection, g, { gate: 'measured' });
}
