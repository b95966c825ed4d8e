/**
 * Flat tables derived from a report, for notebooks: written as Arrow IPC (file format) and
 * Parquet. Column types are fixed per table (not inferred), so a reader sees the same schema
 * whatever the data.
 */
import { Table, type Vector, makeData, makeVector, tableToIPC, Utf8, Int32, Float64, Bool } from 'apache-arrow';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { queryRowBlocks } from './file.ts';
import type { Report, ReportTables } from './types.ts';

export type ColumnKind = 'string' | 'int' | 'double' | 'bool';

export interface ColumnSpec {
  name: string;
  kind: ColumnKind;
}

export interface FlatTable {
  /** file stem under tables/, e.g. "per_tool" */
  name: string;
  columns: ColumnSpec[];
  /** column name -> values (null allowed) */
  data: Record<string, (string | number | boolean | null)[]>;
  rows: number;
}

type Cell = string | number | boolean | null;
const cell = (v: unknown): Cell => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null);

/** A table builder; push() takes only the declared columns from a row, missing or non-scalar -> null. */
function makeTable(name: string, columns: ColumnSpec[]): FlatTable & { push(row: object): void } {
  const data: FlatTable['data'] = {};
  for (const c of columns) data[c.name] = [];
  const t = {
    name,
    columns,
    data,
    rows: 0,
    push(row: object) {
      for (const c of columns) data[c.name].push(cell((row as Record<string, unknown>)[c.name]));
      t.rows++;
    },
  };
  return t;
}

export const PER_TOOL_COLUMNS: ColumnSpec[] = [
  { name: 'tool_id', kind: 'string' },
  { name: 'corpus', kind: 'string' },
  { name: 'arm', kind: 'string' },
  { name: 'tokenizer', kind: 'string' },
  { name: 'tokens', kind: 'int' },
];

/**
 * One row per query of every retrieval row (report.json holds none: it names this table in
 * `tables`): the keys of its block (source, corpus, arm, retriever, system), then the QueryRow
 * fields, `top` and `gold` as JSON arrays. read.ts joins them back onto a report read from disk.
 */
export const PER_QUERY_COLUMNS: ColumnSpec[] = [
  { name: 'source', kind: 'string' },
  { name: 'corpus', kind: 'string' },
  { name: 'arm', kind: 'string' },
  { name: 'retriever', kind: 'string' },
  { name: 'query_id', kind: 'string' },
  { name: 'query', kind: 'string' },
  { name: 'first_relevant_rank', kind: 'int' },
  { name: 'recall_at_1', kind: 'double' },
  { name: 'recall_at_3', kind: 'double' },
  { name: 'recall_at_5', kind: 'double' },
  { name: 'recall_at_10', kind: 'double' },
  { name: 'rr', kind: 'double' },
  { name: 'ndcg_at_10', kind: 'double' },
  { name: 'ap', kind: 'double' },
  { name: 'top', kind: 'string' },
  { name: 'error', kind: 'string' },
  { name: 'gold', kind: 'string' },
  { name: 'comprehensive_at_5', kind: 'double' },
  { name: 'system', kind: 'string' },
];

const ARM_COLUMNS: ColumnSpec[] = [
  { name: 'corpus', kind: 'string' },
  { name: 'arm', kind: 'string' },
  { name: 'tokenizer', kind: 'string' },
  { name: 'skipped', kind: 'bool' },
  { name: 'skip_reason', kind: 'string' },
  { name: 'index_altering', kind: 'bool' },
  { name: 'lower_bound', kind: 'bool' },
  { name: 'retry_rate', kind: 'double' },
  { name: 'skipped_tools', kind: 'int' },
  { name: 'total_tokens', kind: 'int' },
  { name: 'mean', kind: 'double' },
  { name: 'p50', kind: 'double' },
  { name: 'p95', kind: 'double' },
  { name: 'max', kind: 'double' },
  { name: 'savings_vs_baseline_pct', kind: 'double' },
];

const LIVE_RESPONSE_COLUMNS: ColumnSpec[] = [
  { name: 'query_id', kind: 'string' },
  { name: 'detail', kind: 'string' },
  { name: 'tokenizer', kind: 'string' },
  { name: 'ok', kind: 'bool' },
  { name: 'error', kind: 'string' },
  { name: 'total_tokens', kind: 'int' },
  { name: 'result_count', kind: 'int' },
  { name: 'latency_ms', kind: 'double' },
  { name: 'input_schemas', kind: 'int' },
  { name: 'descriptions', kind: 'int' },
  { name: 'usage_instructions', kind: 'int' },
  { name: 'metadata', kind: 'int' },
  { name: 'other', kind: 'int' },
];

const RESULT_ARM_COLUMNS: ColumnSpec[] = [
  { name: 'fixture_id', kind: 'string' },
  { name: 'payload_class', kind: 'string' },
  { name: 'arm', kind: 'string' },
  { name: 'tokenizer', kind: 'string' },
  { name: 'skipped', kind: 'bool' },
  { name: 'skip_reason', kind: 'string' },
  { name: 'chars', kind: 'int' },
  { name: 'tokens', kind: 'int' },
  { name: 'json_tokens', kind: 'int' },
  { name: 'savings_vs_json_pct', kind: 'double' },
  { name: 'round_trip', kind: 'bool' },
  { name: 'round_trip_error', kind: 'string' },
];

/**
 * The tables of a (valid) report held in memory: per_tool (one row per corpus x arm x tokenizer x
 * tool, tokens null where the arm could not encode the tool), per_query (offline, live and the
 * systems' live rows, report order; PER_QUERY_COLUMNS), arms (one
 * row per corpus x arm x tokenizer; one row with tokenizer null for a skipped arm), when the
 * report has result arms result_arms (one row per fixture x result arm x tokenizer) and, when
 * the report has a live section, live_responses.
 */
export function reportTables(report: Report): FlatTable[] {
  const perTool = makeTable('per_tool', PER_TOOL_COLUMNS);
  const corpusIds = new Map(report.corpora.map((c) => [c.id, c.tool_ids]));
  for (const a of report.arms) {
    const ids = corpusIds.get(a.corpus_id) ?? [];
    for (const [tok, s] of Object.entries(a.by_tokenizer)) {
      s.per_tool_tokens.forEach((tokens, i) => perTool.push({ tool_id: ids[i], corpus: a.corpus_id, arm: a.arm, tokenizer: tok, tokens }));
    }
  }

  const perQuery = makeTable('per_query', PER_QUERY_COLUMNS);
  for (const { keys, row } of queryRowBlocks(report)) {
    for (const q of row.per_query ?? [])
      perQuery.push({ ...q, ...keys, top: JSON.stringify(q.top), gold: q.gold === undefined ? null : JSON.stringify(q.gold) });
  }

  const arms = makeTable('arms', ARM_COLUMNS);
  for (const a of report.arms) {
    const common = {
      corpus: a.corpus_id,
      arm: a.arm,
      skipped: a.skipped,
      skip_reason: a.skip_reason ?? null,
      index_altering: a.index_altering,
      lower_bound: a.lower_bound,
      retry_rate: a.retry_rate,
      skipped_tools: a.skipped_tools,
    };
    const toks = Object.entries(a.by_tokenizer);
    if (toks.length === 0) arms.push({ ...common, tokenizer: null });
    for (const [tok, s] of toks) {
      arms.push({
        ...common,
        tokenizer: tok,
        total_tokens: s.total_tokens.value,
        mean: s.mean,
        p50: s.p50,
        p95: s.p95,
        max: s.max,
        savings_vs_baseline_pct: s.savings_vs_baseline_pct.value,
      });
    }
  }

  const tables: FlatTable[] = [perTool, perQuery, arms];
  if (report.results) {
    const res = makeTable('result_arms', RESULT_ARM_COLUMNS);
    for (const r of report.results.rows) res.push(r);
    tables.push(res);
  }
  if (report.live) {
    const live = makeTable('live_responses', LIVE_RESPONSE_COLUMNS);
    for (const r of report.live.responses) live.push({ ...r, ...(r.components ?? {}), error: r.error ?? null });
    tables.push(live);
  }
  return tables;
}

/** Validity bitmap (bit set = value present), or undefined when nothing is null. */
function validity(values: readonly unknown[]): { bitmap?: Uint8Array; nulls: number } {
  let nulls = 0;
  for (const v of values) if (v === null) nulls++;
  if (nulls === 0) return { nulls };
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  values.forEach((v, i) => {
    if (v !== null) bitmap[i >> 3] |= 1 << (i & 7);
  });
  return { bitmap, nulls };
}

/**
 * One Arrow vector built directly from buffers (vectorFromArray's builders are ~30x slower on
 * 500k-row string columns).
 */
function arrowVector(kind: ColumnKind, values: readonly (string | number | boolean | null)[]): Vector {
  const length = values.length;
  const { bitmap, nulls } = validity(values);
  const common = { offset: 0, length, nullCount: nulls, nullBitmap: bitmap };
  switch (kind) {
    case 'string': {
      const offsets = new Int32Array(length + 1);
      let bytes = 0;
      values.forEach((v, i) => {
        if (v !== null) bytes += Buffer.byteLength(String(v), 'utf8');
        offsets[i + 1] = bytes;
      });
      const data = Buffer.alloc(bytes);
      values.forEach((v, i) => {
        if (v !== null) data.write(String(v), offsets[i], 'utf8');
      });
      return makeVector(
        makeData({
          type: new Utf8(),
          ...common,
          valueOffsets: offsets,
          data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
        }),
      );
    }
    case 'int':
      return makeVector(makeData({ type: new Int32(), ...common, data: Int32Array.from(values, (v) => (v === null ? 0 : Number(v))) }));
    case 'double':
      return makeVector(makeData({ type: new Float64(), ...common, data: Float64Array.from(values, (v) => (v === null ? 0 : Number(v))) }));
    case 'bool': {
      const data = new Uint8Array((length + 7) >> 3);
      values.forEach((v, i) => {
        if (v === true) data[i >> 3] |= 1 << (i & 7);
      });
      return makeVector(makeData({ type: new Bool(), ...common, data }));
    }
  }
}

/** Arrow IPC file format bytes. */
export function toArrowIpc(t: FlatTable): Uint8Array {
  const vectors: Record<string, Vector> = {};
  for (const c of t.columns) vectors[c.name] = arrowVector(c.kind, t.data[c.name]);
  return tableToIPC(new Table(vectors), 'file');
}

const PARQUET_TYPE = { string: 'STRING', int: 'INT32', double: 'DOUBLE', bool: 'BOOLEAN' } as const;

/** Parquet bytes (snappy). */
export function toParquet(t: FlatTable): Uint8Array {
  const buf = parquetWriteBuffer({
    columnData: t.columns.map((c) => ({ name: c.name, data: t.data[c.name], type: PARQUET_TYPE[c.kind], nullable: true })),
    createdBy: 'mcpgauge',
  });
  return new Uint8Array(buf);
}

/**
 * A table's two files, relative to report.json: the one home of the layout (writeReport writes
 * them there, report.json's `tables` index names them, so a reader takes the path from the index).
 */
export function tableFiles(name: string): { arrow: string; parquet: string } {
  return { arrow: `tables/${name}.arrow`, parquet: `tables/${name}.parquet` };
}

/** report.json's `tables`: each table's files (relative to report.json), row count and columns. */
export function tableIndex(tables: readonly FlatTable[]): ReportTables {
  const out: ReportTables = {};
  for (const t of tables)
    out[t.name] = {
      ...tableFiles(t.name),
      rows: t.rows,
      columns: t.columns.map((c) => ({ ...c })),
    };
  return out;
}
