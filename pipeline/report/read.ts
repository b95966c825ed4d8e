/**
 * readReport: a report.json read back whole: validated, then its per-query rows read from the
 * per_query Parquet table beside it (the path its `tables` index names) and put back on each
 * retrieval row, so a report from disk is the report the bench held in memory (what the renderer
 * draws). A missing or foreign table (row counts or query ids that do not match) is a UserError
 * naming the file.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { UserError } from '../types.ts';
import { readJsonFile } from '../util/fs.ts';
import { queryKeyString, queryRowBlocks } from './file.ts';
import { queryIdsDigest } from './rows.ts';
import type { QueryRow, Report } from './types.ts';
import { validateReport } from './validate.ts';

export type TableRow = Record<string, unknown>;

/** A per_query table row as the QueryRow it was written from (null columns = absent optional fields). */
function queryRowOf(t: TableRow): QueryRow {
  const num = (k: string) => (typeof t[k] === 'number' ? (t[k] as number) : undefined);
  const row: QueryRow = {
    query_id: String(t.query_id),
    query: String(t.query),
    first_relevant_rank: num('first_relevant_rank') ?? null,
  } as QueryRow;
  const r = row as unknown as Record<string, unknown>;
  for (const k of ['recall_at_1', 'recall_at_3', 'recall_at_5', 'recall_at_10', 'rr', 'ndcg_at_10', 'ap', 'comprehensive_at_5']) {
    const v = num(k);
    if (v !== undefined) r[k] = v;
  }
  row.top = JSON.parse(String(t.top ?? '[]')) as string[];
  if (typeof t.gold === 'string') row.gold = JSON.parse(t.gold) as string[];
  if (typeof t.error === 'string') row.error = t.error;
  return row;
}

/**
 * Put `rows` (per_query table rows) back on the report's retrieval rows (changed in place):
 * each block gets its rows in table order; every block must get exactly its query_count rows
 * with the query ids its query_ids_sha256 names.
 */
export function joinQueryRows(report: Report, rows: readonly TableRow[], where: string): Report {
  const byKey = new Map<string, QueryRow[]>();
  for (const t of rows) {
    const key = queryKeyString({
      source: String(t.source),
      corpus: (t.corpus as string | null) ?? null,
      arm: String(t.arm),
      retriever: (t.retriever as string | null) ?? null,
      system: (t.system as string | null) ?? null,
    });
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push(queryRowOf(t));
  }
  let used = 0;
  for (const { keys, row } of queryRowBlocks(report)) {
    const got = byKey.get(queryKeyString(keys)) ?? [];
    used += got.length;
    const what = `${keys.source} ${keys.system ? `${keys.system} ` : ''}${keys.corpus ?? ''}/${keys.arm}${keys.retriever ? `/${keys.retriever}` : ''}`;
    if (got.length !== row.query_count)
      throw new UserError(
        `${where}: ${got.length} per-query rows for ${what}, the report says ${row.query_count} (a table of another run?)`,
      );
    if (queryIdsDigest(got) !== row.query_ids_sha256)
      throw new UserError(`${where}: the per-query rows for ${what} are not the queries the report scored (query_ids_sha256 differs)`);
    row.per_query = got;
  }
  if (used !== rows.length) throw new UserError(`${where}: ${rows.length - used} per-query rows match no retrieval row of the report`);
  return report;
}

/** The rows of a per_query Parquet table (column name -> value, null for a null cell). */
export async function readQueryTable(path: string, of: string): Promise<TableRow[]> {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (e) {
    throw new UserError(
      `${path}: cannot read the per-query table of ${of} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); it is written beside report.json`,
    );
  }
  try {
    return (await parquetReadObjects({
      file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer,
    })) as TableRow[];
  } catch (e) {
    throw new UserError(`${path}: not a readable Parquet file (${(e as Error).message})`);
  }
}

/** report.json at `file`, validated, with its per-query rows from the Parquet table beside it. */
export async function readReport(file: string): Promise<Report> {
  const report = validateReport(readJsonFile(file));
  if (queryRowBlocks(report).length === 0) return report;
  const rel = report.tables?.per_query?.parquet;
  if (!rel) throw new UserError(`${file}: no tables.per_query in the report (written by an older mcpgauge? run bench again)`);
  const path = join(dirname(file), rel);
  return validateReport(joinQueryRows(report, await readQueryTable(path, file), path));
}
