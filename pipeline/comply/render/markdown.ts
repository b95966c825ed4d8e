/** Markdown: a summary table per run and the failing checks with our summary of each requirement. Every text that is not our own markup goes through `md` (util/escape.ts). */
import type { ComplyReport } from '../types.ts';
import { md } from '../../util/escape.ts';
import { allWarnings, failing, gradeText, poolText, runTitle, severityText } from './common.ts';

export function renderMarkdown(rep: ComplyReport): string {
  const out: string[] = [
    `# MCP compliance: ${md(rep.target)}`,
    '',
    `Era: **${rep.era.detected ?? rep.era.choice}** (${md(rep.era.reason)}). Generated ${rep.generatedAt} by ${rep.tool.name} ${rep.tool.version}.`,
    '',
  ];
  for (const r of rep.runs) {
    out.push(
      `## ${md(runTitle(r))}`,
      '',
      `- Conformance: **${gradeText(r.conformance)}** — ${poolText(r.conformance)}`,
      `- Security posture (separate): ${gradeText(r.security)}`,
      '',
    );
    out.push('| category | passed | evaluated | applicable |', '|---|---:|---:|---:|');
    for (const c of r.categories) out.push(`| ${c.category} | ${c.passed} | ${c.evaluated} | ${c.applicable} |`);
    const f = failing(r);
    if (r.startFailure) out.push('', `**Root cause:** ${md(r.startFailure)}`);
    if (f.length) {
      out.push('', '### Failing checks', '');
      for (const x of f)
        out.push(
          `- **${x.id}** (${severityText(x.meta)}) — ${md(x.detail)}  \n  Requirement (our summary): ${md(x.meta.spec.requirement)} ([spec](${x.meta.spec.url}))${r.startFailure ? '' : `  \n  Fix: ${md(x.meta.fix)}`}`,
        );
    }
    out.push('');
  }
  out.push(
    `Grading: ${md(rep.grading.rule)}${rep.grading.capApplied ? '' : ' (cap off for this run)'}. Note: ${rep.grading.requirementText}.`,
    '',
  );
  const w = allWarnings(rep);
  if (w.length) out.push('## Warnings', '', ...w.map((x) => `- ${md(x)}`), '');
  return `${out.join('\n')}\n`;
}
