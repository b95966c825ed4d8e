#!/usr/bin/env zx
// Runs every test file under test/ with node's built-in runner, each file as one bundled ES module
// (scripts/lib/test-bundle.mjs: esbuild, what tsx compiles with, without tsx's per-process cost).
// The run gets a private TMPDIR; anything a test leaves there (a temp folder it did not remove)
// fails the run with the names, and the folder is removed either way.
import { $, glob, argv } from 'zx';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { bundleTests, removeTestBundles, sourceOfBundle } from './lib/test-bundle.mjs';
$.verbose = true;
const root = resolve(import.meta.dirname, '..');
const only = argv._.length ? argv._ : ['test/**/*.test.ts'];
// The longest files first (longest-processing-time order: walls of a clean-clone CI run,
// 2026-12-04, 66-13 s), so the runner slots stay busy to the end instead of one long file running
// alone at the tail; then the rest in name order. A file missing from the list just runs in name
// order. The waiting-bound gate files (timeouts, restarts) alternate with CPU-bound ones (the
// knob mutation runs, conformance, pack, LAP, diff), so neither kind fills all slots at once.
// node's runner starts files in path order whatever order it is given: scripts/lib/test-bundle.mjs
// names each bundle's folder by its place here (before 2026-12-04 the list had no effect: files
// started in name order).
const SLOW_FIRST = [
  'test/gate/sabotage.test.ts',
  'test/comply/knobs.test.ts',
  'test/gate/network.test.ts',
  'test/build/pack.test.ts',
  'test/gate/sabotage-recovery.test.ts',
  'test/fixture/conformance.test.ts',
  'test/bench/compose-substrate.test.ts',
  'test/live/lap.test.ts',
  'test/gate/docker.test.ts',
  'test/diff/diff.test.ts',
  'test/gate/sabotage-gateways.test.ts',
  'test/comply/hostile.test.ts',
  // from here the waiting-bound gate files alternate with short CPU-bound ones (a browser, report
  // assembly, source scans): in a run with the gate files in a row, two cores were 60-87% busy for
  // ~50 s while they ran side by side (a /proc/stat sample, 2026-12-04), ~100% otherwise
  'test/gate/gateways.test.ts',
  'test/report/dashboard.test.ts',
  'test/hostile/gate-verdicts.test.ts',
  'test/report/write.test.ts',
  'test/gate/repeat.test.ts',
  'test/bench/default-report.test.ts',
  'test/proxy/stdio-limits.test.ts',
  'test/architecture.test.ts',
  'test/gate/readme-examples.test.ts',
  'test/tokens/bound.test.ts',
  'test/gate/fragment-merge.test.ts',
  'test/report/gate-section.test.ts',
  'test/gate/sabotage-network.test.ts',
  'test/report/dashboard-static.test.ts',
  'test/hostile/tokenizer.test.ts',
  // the same from here on (a second dip, 76-78% busy for ~60 s, where these waiting-bound files
  // met: live systems, the reference prober, TLS, the gateways)
  'test/tokens/engines.test.ts',
  'test/systems/presets.test.ts',
  'test/bench/parallel.test.ts',
  'test/comply/vs-reference.test.ts',
  'test/retrieval/search-memo.test.ts',
  'test/bench/offline.test.ts',
  'test/live/result_cost.test.ts',
  'test/gate/summary.test.ts',
  'test/hostile/esc.test.ts',
  'test/comply/tls.test.ts',
  'test/comply/dashboard.test.ts',
  'test/hostile/out-dir.test.ts',
  'test/report/dashboard-load.test.ts',
  'test/live/gateways.test.ts',
  'test/hostile/processes.test.ts',
  'test/scale/scale.test.ts',
  'test/hostile/exit-codes.test.ts',
];
// Files at once. Most of the slow files wait (timeouts, restarts, child processes starting): one file
// alone keeps a core about half busy (sum of CPU 917 s over 1,644 s of walls, 2026-12-02). At three
// at once the runner kept two cores ~75-80% busy (a /proc sampler over a clean-clone .ci/run,
// 2026-12-04: 659 s of CPU in 437 s); at four, 342-356 s in the runner on clean clones, 0 failures
// (2026-12-04; 377 s for 613 s of CPU in a warm tree, 81%). Earlier: three ran the suite in 488-582 s where two took about 600 s, and
// four 507 s where three took 541 s. The Docker tests' teardown checks used to fail on a slow vfs
// engine; the teardown waits for the engine's --rm work (pipeline/gate/docker.ts sweepContainers).
// MCPGAUGE_TEST_CONCURRENCY=N changes it (1 to debug an ordering).
const CONCURRENCY = Number(process.env.MCPGAUGE_TEST_CONCURRENCY ?? 4);
if (!Number.isInteger(CONCURRENCY) || CONCURRENCY < 1) {
  console.error(`MCPGAUGE_TEST_CONCURRENCY: ${process.env.MCPGAUGE_TEST_CONCURRENCY} is not a whole number >= 1`);
  process.exit(2);
}
const rank = (f) => (SLOW_FIRST.includes(f) ? SLOW_FIRST.indexOf(f) : SLOW_FIRST.length);
const files = (await glob(only)).sort().sort((a, b) => rank(a) - rank(b));
if (files.length === 0) {
  console.error('no test files matched', only.join(' '));
  process.exit(1);
}
const outer = tmpdir();
const runTmp = mkdtempSync(join(outer, 'mcpgauge-testrun-'));
// tool caches (tsx's transform cache) are shared with the outer temp folder, not leftovers
const CACHE = /^tsx-/;
for (const name of readdirSync(outer).filter((n) => CACHE.test(n))) symlinkSync(join(outer, name), join(runTmp, name));
// LAP (the lap-score venv, pipeline/live/lap_venv.ts) is off for the suite; test/live/lap.test.ts runs it on purpose
$.env = { MCPGAUGE_LAP: 'off', ...process.env, TMPDIR: runTmp, TMP: runTmp, TEMP: runTmp };
const timesFile = join(outer, `mcpgauge-test-times-${process.pid}.jsonl`);
// the slowest files of this run (first to last event of each), so the suite's cost shows in every run
function printSlowest(file) {
  if (!existsSync(file)) return;
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  rmSync(file, { force: true });
  if (rows.length < 2) return;
  rows.sort((a, b) => b.ms - a.ms);
  console.log(`test: slowest files (sum of top-level tests; ${rows.length} files):`);
  for (const r of rows.slice(0, 12))
    console.log(`  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${relative(root, sourceOfBundle(root, r.file))}`);
}
let code = 0;
try {
  // the processes the tests spawn run dist/: compile it when missing or stale (a no-op otherwise)
  await $`node scripts/build.mjs`;
  // design checks first (no import cycles, no library/server module importing the CLI), beside the
  // bundling (~2 s each): a failed check stops the run before any test starts
  // (both are waited for, so no bundle is still being written when the folder is removed)
  const [cycles, bundled] = await Promise.allSettled([
    $`node scripts/check-cycles.mjs`,
    bundleTests(
      root,
      files.map((f) => relative(root, resolve(f))),
    ),
  ]);
  for (const r of [cycles, bundled]) if (r.status === 'rejected') throw r.reason;
  const bundles = bundled.value;
  await $`node --enable-source-maps --test --test-concurrency=${CONCURRENCY} --test-timeout=300000 --test-reporter=spec --test-reporter-destination=stdout --test-reporter=./scripts/lib/file-times-reporter.mjs --test-reporter-destination=${timesFile} ${bundles}`;
} catch (e) {
  code = e.exitCode ?? 1;
} finally {
  removeTestBundles(root);
}
printSlowest(timesFile);
const left = existsSync(runTmp) ? readdirSync(runTmp).filter((n) => !CACHE.test(n)) : [];
rmSync(runTmp, { recursive: true, force: true });
if (left.length > 0) {
  console.error(
    `test: ${left.length} temp entr${left.length === 1 ? 'y was' : 'ies were'} left behind by the tests (every test must remove what it creates): ${left.sort().join(', ')}`,
  );
  if (code === 0) code = 1;
}
process.exit(code);
