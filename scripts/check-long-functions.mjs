#!/usr/bin/env node
// Lists the functions of pipeline/ longer than 100 lines (scripts/lib/long-functions.mjs); exit 1
// when there is one. `node scripts/check-long-functions.mjs [max] [dir...]` for another limit or tree.
import { resolve } from 'node:path';
import { MAX_FUNCTION_LINES, longFunctions } from './lib/long-functions.mjs';

const root = resolve(import.meta.dirname, '..');
const [maxArg, ...dirs] = process.argv.slice(2);
const max = maxArg === undefined ? MAX_FUNCTION_LINES : Number(maxArg);
if (!Number.isInteger(max) || max < 1) {
  console.error(`check-long-functions: the limit must be an integer >= 1, got ${JSON.stringify(maxArg)}`);
  process.exit(2);
}
const long = longFunctions(root, dirs.length ? dirs : ['pipeline'], max);
for (const x of long) console.log(`${x.file}:${x.line}: ${x.name} is ${x.lines} lines (limit ${max})`);
console.log(`functions over ${max} lines: ${long.length}`);
process.exit(long.length ? 1 : 0);
