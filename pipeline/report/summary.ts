/**
 * The console summary of a report (what `mcpgauge bench` prints to stderr after writing it):
 * each section's `summary` lines, in the order of the section list the dashboard draws
 * (pipeline/sections.ts REPORT_SECTIONS), so the terminal and the page read the same figures.
 */
import type { ReportSection } from './details.ts';
import type { Report } from './types.ts';

export function summaryLines(report: Report, sections: readonly ReportSection<Report>[]): string[] {
  return sections.flatMap((s) => s.summary?.(report) ?? []);
}
