/**
 * writeReport: validate, then write report.json, tables/*.arrow + tables/*.parquet and
 * dashboard.html into outDir. Everything is rendered in memory first; an invalid report (or a
 * rendering failure) writes nothing. Each file is written atomically (temp file + rename).
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../util/fs.ts';
import { renderDashboard } from './dashboard.ts';
import { reportTables, toArrowIpc, toParquet } from './tables.ts';
import type { Report } from './types.ts';
import { validateReport } from './validate.ts';

export interface WrittenReport {
  /** outDir/report.json */
  report: string;
  /** outDir/dashboard.html */
  dashboard: string;
  /** table name -> {arrow, parquet, rows} */
  tables: Record<string, { arrow: string; parquet: string; rows: number }>;
  /** every path written, in write order */
  paths: string[];
}

/** The exact report.json text: 2-space indented JSON with a trailing newline. */
export function reportJsonText(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export async function writeReport(report: Report, outDir: string): Promise<WrittenReport> {
  const valid = validateReport(report);
  const json = reportJsonText(valid);
  const tables = reportTables(valid).map((t) => ({ t, arrow: toArrowIpc(t), parquet: toParquet(t) }));
  const html = await renderDashboard(valid);

  const out: WrittenReport = { report: join(outDir, 'report.json'), dashboard: join(outDir, 'dashboard.html'), tables: {}, paths: [] };
  const put = (path: string, data: string | Uint8Array) => {
    writeFileAtomic(path, data);
    out.paths.push(path);
  };
  for (const { t, arrow, parquet } of tables) {
    const entry = { arrow: join(outDir, 'tables', `${t.name}.arrow`), parquet: join(outDir, 'tables', `${t.name}.parquet`), rows: t.rows };
    put(entry.arrow, arrow);
    put(entry.parquet, parquet);
    out.tables[t.name] = entry;
  }
  put(out.dashboard, html);
  // report.json last: its presence means the whole set was written
  put(out.report, json);
  return out;
}
