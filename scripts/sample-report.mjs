#!/usr/bin/env zx
// `make sample-report`: regenerates test/data/report.json, the report the renderer, validator
// and table tests read. It is a real run: the default offline profile plus the live stage
// against the embedded proxy, with the reference proxy's menu as an extra corpus without a
// golden set (so not-scorable rows occur). Its per-query rows are not in report.json: the run's
// tables/per_query.parquet is copied to test/data/report.per_query.parquet (the tests join it
// back, test/report/sample.ts). A second real run writes test/data/report-systems.json:
// systems side by side (direct, reference, and a command that exits at once, so failed-system and
// failed-point shapes occur) plus a small scale sweep (rows: report-systems.per_query.parquet). Machine-specific strings (the repository
// path) are replaced by "<repo>"; only time fields (generated_at, latency) change between runs.
// Regenerate after changing a producer; never edit the file by hand.
import { $, fs, path, tmpdir } from 'zx';
import { SAMPLE_ARGS, SYSTEMS_SAMPLE_ARGS, benchQueryTable, sampleQueryTable } from './lib/sample-bench.mjs';
$.verbose = false;
const root = path.resolve(import.meta.dirname, '..');
const out = tmpdir();

/** run `mcpgauge bench ARGS`, strip machine-specific strings, write test/data/NAME atomically */
async function sample(args, name, exitCode = 0) {
  const dir = path.join(out, name);
  const r = await $({ cwd: root, stdio: ['ignore', 'ignore', 'inherit'], nothrow: true })`node bin/mcpgauge.mjs bench ${args} --out ${dir}`;
  if (r.exitCode !== exitCode) throw Object.assign(new Error(`bench for ${name} exited ${r.exitCode}, not ${exitCode}`), { exitCode: 1 });
  const text = fs.readFileSync(path.join(dir, 'report.json'), 'utf8').split(root).join('<repo>').split(tmpRoot()).join('<tmp>');
  const report = JSON.parse(text);
  report.meta.command_line = ['mcpgauge', 'bench', ...args, '--out', '<tmp>'];
  report.meta.git_commit = null;
  report.meta.node_version = 'v20.0.0';
  const dest = path.join(root, 'test', 'data', name);
  fs.writeFileSync(`${dest}.tmp`, `${JSON.stringify(report, null, 1)}\n`);
  const rows = sampleQueryTable(dest);
  fs.copyFileSync(path.join(dir, benchQueryTable(report)), `${rows}.tmp`);
  fs.renameSync(`${rows}.tmp`, rows);
  fs.renameSync(`${dest}.tmp`, dest);
  console.log(`wrote ${path.relative(root, dest)} and ${path.relative(root, rows)}`);
}

/** the system temp folder (paths under it differ per run) */
function tmpRoot() {
  return (process.env.TMPDIR || '/tmp').replace(/\/$/, '');
}

try {
  await sample(SAMPLE_ARGS, 'report.json');
  // its `broken` system fails on purpose: the run exits 2 with the report written
  await sample(SYSTEMS_SAMPLE_ARGS, 'report-systems.json', 2);
} catch (e) {
  process.exit(e.exitCode ?? 1);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
