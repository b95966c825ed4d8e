// The committed sample reports of test/data: the bench arguments that make them (`make
// sample-report`, and `scripts/refactor-snapshot.mjs`, which runs the same profiles), and the
// default one laid out as a bench writes it (report.json + tables/per_query.parquet), so
// `mcpgauge report --bench` reads it back with its per-query rows: test/data keeps the table as
// report.per_query.parquet beside report.json (two sample reports share that folder):
// `sampleQueryTable` is the one home of that name (scripts/sample-report.mjs writes it, the tests
// read it). Where a bench folder keeps the table is report.json's own `tables` index
// (pipeline/report/tables.ts `tableFiles`), read here, never spelled.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** test/data/NAME.json -> test/data/NAME.per_query.parquet: where a committed sample keeps its per-query table */
export function sampleQueryTable(reportJson) {
  if (!reportJson.endsWith('.json')) throw new Error(`${reportJson}: not a .json report path`);
  return `${reportJson.slice(0, -'.json'.length)}.per_query.parquet`;
}

/** the per-query Parquet file of a report, relative to its report.json, from the report's `tables` index */
export function benchQueryTable(report) {
  const rel = report.tables?.per_query?.parquet;
  if (!rel) throw new Error('report.json has no tables.per_query index');
  return rel;
}

export function sampleBenchDir(root, into) {
  const dir = join(into, 'sample-bench');
  const src = join(root, 'test', 'data', 'report.json');
  const to = join(dir, benchQueryTable(JSON.parse(readFileSync(src, 'utf8'))));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(src, join(dir, 'report.json'));
  copyFileSync(sampleQueryTable(src), to);
  return join(dir, 'report.json');
}

/** `mcpgauge bench` arguments (without --out) of test/data/report.json: the default profile plus the live stage. */
export const SAMPLE_ARGS = ['--live', '--extra-corpus', 'datasets/proxy-menu-v1.tools.json'];

/** ... of test/data/report-systems.json: three systems side by side and a small scale sweep. */
export const SYSTEMS_SAMPLE_ARGS = [
  '--live',
  '--no-offline',
  '--system',
  'direct',
  '--system',
  'reference',
  '--system',
  'broken=cmd:node -e process.exit(3)',
  '--scale',
  '10,100',
  '--runs',
  '1',
  '--warmup',
  '1',
  '--live-queries',
  '12',
  '--scale-queries',
  '8',
  '--bootstrap',
  '200',
];
