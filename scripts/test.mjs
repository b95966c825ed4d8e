#!/usr/bin/env zx
// Runs every test file under test/ with node's built-in runner through tsx.
import { $, glob, argv } from 'zx';
$.verbose = true;
const only = argv._.length ? argv._ : ['test/**/*.test.ts'];
const files = (await glob(only)).sort();
if (files.length === 0) {
  console.error('no test files matched', only.join(' '));
  process.exit(1);
}
try {
  // design checks first: no import cycles, no library/server module importing the CLI
  await $`node scripts/check-cycles.mjs`;
  await $`node --import tsx --test --test-concurrency=2 --test-timeout=300000 ${files}`;
} catch (e) {
  process.exit(e.exitCode ?? 1);
}
