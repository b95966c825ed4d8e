#!/usr/bin/env zx
// `make bench-perf`: runs every benchmark section in scripts/perf/ (name order) and prints
// its figures. Figures are printed as ratios against a peer measured in the same run; nothing
// here is asserted. A section that fails is reported and the others still run.
import { $, glob, path } from 'zx';
const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
const files = (await glob('scripts/perf/*.ts', { cwd: root })).sort().filter((f) => !only.length || only.some((o) => f.includes(o)));
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${path.basename(f, '.ts')} ===`);
  try {
    await $({ cwd: root, stdio: 'inherit' })`node --import tsx --expose-gc ${f}`;
  } catch (e) {
    failed++;
    console.log(`[bench-perf] section ${f} failed (exit ${e.exitCode})`);
  }
}
process.exit(failed ? 1 : 0);
