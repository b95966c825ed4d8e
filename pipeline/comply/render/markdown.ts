/** Markdown: a summary table per run and the failing checks with our summary of each requirement. */
import type { ComplyReport } from '../types.ts';
import { allWarnings, failing, gradeText, poolText, runTitle, severityText } from './common.ts';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMarkdown(rep: ComplyReport): string {
  const out: string[] = [`# MCP compliance: ${cell(rep.target)}`, '', `Era: **${rep.era.detected ?? rep.era.choice}** (${cell(rep.era.reason)}). Generated ${rep.generatedAt} by ${rep.tool.name} ${rep.tool.version}.`, ''];
  for (const r of rep.runs) {
    out.push(`## ${cell(runTitle(r))}`, '', `- Conformance: **${gradeText(r.conformance)}** — ${poolText(r.conformance)}`, `- Security posture (separate): ${gradeText(r.security)}`, '');
    out.push('| category | passed | evaluated | applicable |', '|---|---:|---:|---:|');
    for (const c of r.categories) out.push(`| ${c.category} | ${c.passed} | ${c.evaluated} | ${c.applicable} |`);
    const f = failing(r);
    if (f.length) {
      out.push('', '### Failing checks', '');
      for (const x of f) out.push(`- **${x.id}** (${severityText(x.meta)}) — ${cell(x.detail)}  \n  Requirement (our summary): ${cell(x.meta.spec.requirement)} ([spec](${x.meta.spec.url}))  \n  Fix: ${cell(x.meta.fix)}`);
    }
    out.push('');
  }
  out.push(`Grading: ${cell(rep.grading.rule)}${rep.grading.capApplied ? '' : ' (cap off for this run)'}. Note: ${rep.grading.requirementText}.`, '');
  const w = allWarnings(rep);
  if (w.length) out.push('## Warnings', '', ...w.map((x) => `- ${cell(x)}`), '');
  return `${out.join('\n')}\n`;
}
