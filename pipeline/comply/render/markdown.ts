/** Markdown: a summary table per run and the failing checks with their spec sentences. */
import type { ComplyReport } from '../types.ts';
import { allWarnings, failing, gradeText, poolText, runTitle } from './common.ts';

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
      for (const x of f) out.push(`- **${x.id}** (${x.meta.severity}) — ${cell(x.detail)}  \n  > ${cell(x.meta.spec.sentence)} ([spec](${x.meta.spec.url}))  \n  Fix: ${cell(x.meta.fix)}`);
    }
    out.push('');
  }
  const w = allWarnings(rep);
  if (w.length) out.push('## Warnings', '', ...w.map((x) => `- ${cell(x)}`), '');
  return `${out.join('\n')}\n`;
}
