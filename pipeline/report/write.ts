/**
 * writeReport: validate, then write report.json, tables/*.arrow + tables/*.parquet and
 * dashboard.html into outDir. report.json holds no per-query rows (file.ts): they are in
 * tables/per_query, and its `tables` index names every table's files and columns; the dashboard
 * is drawn from the report in memory, rows included (`mcpgauge report` reads them back, read.ts). Everything is rendered in memory first; an invalid report (or a
 * rendering failure) writes nothing. The set is written into outDir (util/fs.ts writeFileSetAsync: a
 * symlink is followed, the folder's permissions and files that are not ours stay): every file goes
 * to a temp file beside it first, so a failed write (disk full) leaves the previous set untouched
 * and the error names the file; then each is renamed over its target, tables/ first, then
 * dashboard.html, report.json last: a new report.json means the whole set is new. Without the
 * dashboard (`bench --no-dashboard`) no chart is drawn, and a dashboard.html an earlier run left in
 * outDir is removed in the dashboard's place in that order (it would show another run's figures).
 */
import { join } from 'node:path';
import { writeFileSetAsync } from '../util/fs.ts';
import { renderDashboard } from './dashboard.ts';
import { withoutQueryRows } from './file.ts';
import { reportTables, tableFiles, tableIndex, toArrowIpc, toParquet } from './tables.ts';
import type { Report } from './types.ts';
import type { ReportSection, SectionInput } from './details.ts';
import { validateReport } from './validate.ts';

export interface WrittenReport {
  /** outDir/report.json */
  report: string;
  /** outDir/dashboard.html (null: written without it) */
  dashboard: string | null;
  /** table name -> {arrow, parquet, rows} */
  tables: Record<string, { arrow: string; parquet: string; rows: number }>;
  /** every path written, in write order */
  paths: string[];
}

/** The exact report.json text: the report without its per-query rows, 2-space indented JSON with a trailing newline. */
export function reportJsonText(report: Report): string {
  return `${JSON.stringify(withoutQueryRows(report), null, 2)}\n`;
}

/**
 * `sections`: the dashboard's section list (pipeline/sections.ts REPORT_SECTIONS; the renderer
 * imports no producer, so the list is handed in); `extraSections`: other documents' sections.
 */
export async function writeReport(
  report: Report,
  outDir: string,
  sections: readonly ReportSection<Report>[],
  extraSections: SectionInput[] = [],
  { dashboard = true }: { dashboard?: boolean } = {},
): Promise<WrittenReport> {
  const valid = validateReport(report);
  let page: Promise<string> | null = null;
  if (dashboard) {
    page = renderDashboard(valid, sections, extraSections);
    page.catch(() => undefined); // awaited below; a failure of the tables first must not leave it unhandled
  }
  const flat = reportTables(valid);
  const json = reportJsonText({ ...valid, tables: tableIndex(flat) });
  const tables = flat.map((t) => ({ t, arrow: toArrowIpc(t), parquet: toParquet(t) }));
  const html = page ? await page : null;

  const out: WrittenReport = {
    report: join(outDir, 'report.json'),
    dashboard: html === null ? null : join(outDir, 'dashboard.html'),
    tables: {},
    paths: [],
  };
  const files: { path: string; data: string | Uint8Array | null }[] = [];
  for (const { t, arrow, parquet } of tables) {
    const at = tableFiles(t.name);
    files.push({ path: at.arrow, data: arrow }, { path: at.parquet, data: parquet });
    out.tables[t.name] = { arrow: join(outDir, at.arrow), parquet: join(outDir, at.parquet), rows: t.rows };
  }
  // null: no dashboard this time, and one an earlier run left is removed (writeFileSet)
  files.push({ path: 'dashboard.html', data: html }, { path: 'report.json', data: json });
  // written in this order (report.json last); a crash leaves each file old or new, never missing
  await writeFileSetAsync(outDir, files, '--out');
  out.paths = files.filter((f) => f.data !== null).map((f) => join(outDir, f.path));
  return out;
}
