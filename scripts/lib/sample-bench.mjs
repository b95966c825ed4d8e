// The committed sample reports of test/data: the bench arguments that make them (`make
// sample-report`, and `scripts/refactor-snapshot.mjs`, which runs the same profiles), and the
// default one laid out as a bench writes it (report.json + tables/per_query.parquet), so
// `mcpgauge report --bench` reads it back with its per-query rows: test/data keeps the table as
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
