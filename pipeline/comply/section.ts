/**
 * The compliance section (mcpgauge comply): per run (revision x wire) a grade tile with its
 * coverage, score and MUST cap, per-category bars, and the failing checks with our summary of the
 * requirement each enforces.
 * Reads a comply report (datasets/schemas/comply-report.schema.json); drawn next to the bench
 * sections when both are rendered together, alone by `mcpgauge comply --format html`.
 */
import { html, rich, type Block, type ReportSection, type Tile } from '../report/index.ts';
import type { ComplyReport, Grade, RunReport } from './types.ts';
import { capText, severityText } from './render/common.ts';

function gradeTile(r: RunReport): Tile {
  const g = r.conformance;
  return {
    label: `${r.revision} · ${r.wire}`,
    value: g.grade ?? '—',
    sub:
      g.grade === null
        ? `no grade: coverage ${pct(g.coverage)} (< 50%)`
        : `score ${g.score} · coverage ${pct(g.coverage)} · ${capText(g)} · security ${r.security.grade ?? '—'}`,
    provenance: 'measured',
  };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const pool = (g: Grade) => `required ${g.required.passed}/${g.required.evaluated}, optional ${g.optional.passed}/${g.optional.evaluated}`;

function bar(passed: number, evaluated: number) {
  const w = evaluated ? Math.round((100 * passed) / evaluated) : 0;
  return rich(
    html`<span class="bar" style="display:inline-block;width:120px;height:9px;background:#e4e7ec;border-radius:4px;overflow:hidden;vertical-align:middle"><span style="display:block;height:100%;width:${w}%;background:#2f7d4f"></span></span> ${passed}/${evaluated}`,
    w,
  );
}

function runBlocks(r: RunReport): Block[] {
  const failing = r.results.filter((x) => x.status === 'fail');
  const blocks: Block[] = [
    {
      kind: 'heading',
      text: `${r.revision} over ${r.wire}: ${r.serverInfo.name ?? 'unnamed server'} ${r.serverInfo.version ?? ''}`,
      provenance: 'measured',
    },
    ...(r.startFailure ? [{ kind: 'banner' as const, tone: 'bad' as const, title: 'Root cause.', text: r.startFailure }] : []),
    {
      kind: 'paragraph',
      text: `Conformance ${r.conformance.grade ?? 'not graded'} (score ${r.conformance.score ?? '—'}; ${capText(r.conformance)}; ${pool(r.conformance)}); security posture scored apart: ${r.security.grade ?? 'not graded'}.`,
    },
    {
      kind: 'table',
      id: `comply-cat-${r.revision}-${r.wire}`,
      columns: [
        { key: 'category', label: 'Category', type: 'key' },
        { key: 'bar', label: 'Passed / evaluated', type: 'text' },
        { key: 'applicable', label: 'Applicable', type: 'int' },
        { key: 'open', label: 'Not evaluated', type: 'int' },
      ],
      rows: r.categories.map((c) => ({
        category: c.category,
        bar: bar(c.passed, c.evaluated),
        applicable: c.applicable,
        open: c.applicable - c.evaluated,
      })),
    },
  ];
  blocks.push(
    failing.length
      ? {
          kind: 'table',
          id: `comply-fail-${r.revision}-${r.wire}`,
          columns: [
            { key: 'id', label: 'Failing check', type: 'ident' },
            { key: 'severity', label: 'Severity', type: 'ident' },
            { key: 'detail', label: 'What happened', type: 'text', wide: true },
            { key: 'spec', label: 'Requirement (our summary)', type: 'text', wide: true },
            // a server that never started gets its root cause, not fixes that follow from it
            ...(r.startFailure ? [] : [{ key: 'fix', label: 'Fix', type: 'text' as const, wide: true }]),
          ],
          rows: failing.map((x) => ({
            id: x.id,
            severity: severityText(x.meta),
            detail: x.detail,
            spec: rich(html`${x.meta.spec.requirement} <a href="${x.meta.spec.url}">spec</a>`),
            fix: x.meta.fix,
          })),
          rowClasses: failing.map((x) => (x.meta.severity === 'MUST' && x.meta.basis === 'direct' ? 'err' : 'weak')),
        }
      : { kind: 'paragraph', muted: true, text: 'No failing checks.' },
  );
  return blocks;
}

export const complianceSection: ReportSection<ComplyReport> = {
  id: 'compliance',
  title: 'MCP compliance',
  provenanceKeys: [],
  schemaRefs: ['comply-report.schema.json#/$defs/run'],
  appliesTo: (c) => c.runs.length > 0,
  build(c) {
    const warnings = [...c.warnings, ...c.runs.flatMap((r) => r.warnings)];
    return {
      tiles: c.runs.map(gradeTile),
      blocks: [
        {
          kind: 'kv',
          items: [
            { label: 'Target', value: c.target },
            { label: 'Era', value: `${c.era.detected ?? c.era.choice} (${c.era.reason})` },
            { label: 'How', value: `${c.provenance.method}` },
            { label: 'Grading', value: `${c.grading?.rule ?? ''}${c.grading && !c.grading.capApplied ? ' (cap off for this run)' : ''}` },
            { label: 'Requirement text', value: c.grading?.requirementText ?? '' },
          ],
        },
        ...c.runs.flatMap(runBlocks),
        ...(warnings.length
          ? [{ kind: 'details', summary: `${warnings.length} warning(s)`, blocks: [{ kind: 'list', items: warnings }] } as Block]
          : []),
      ],
    };
  },
};
