// The committed sample report laid out as a bench writes it (report.json + tables/per_query.parquet),
// so `mcpgauge report --bench` reads it back with its per-query rows: test/data keeps the table as
// report.per_query.parquet beside report.json (two sample reports share that folder).
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export function sampleBenchDir(root, into) {
  const dir = join(into, 'sample-bench');
  mkdirSync(join(dir, 'tables'), { recursive: true });
  copyFileSync(join(root, 'test', 'data', 'report.json'), join(dir, 'report.json'));
  copyFileSync(join(root, 'test', 'data', 'report.per_query.parquet'), join(dir, 'tables', 'per_query.parquet'));
  return join(dir, 'report.json');
}
