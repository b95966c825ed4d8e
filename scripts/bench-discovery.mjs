#!/usr/bin/env zx
// `make bench-discovery`: the default profile. Offline arms + retrieval on the frozen corpus
// (plus any corpus fetched into .cache/ by `make fetch`), then the live stage against the
// embedded default proxy. ARGS pass through, e.g.
//   make bench-discovery ARGS="--no-live"      make bench-discovery ARGS="--out DIR"
//   make bench-discovery ARGS="--out=DIR --arms baseline_json,compact_sig"
import { $, fs, path } from 'zx';
import { benchDiscoveryArgs } from './lib/args.mjs';
$.verbose = true;
const root = path.resolve(import.meta.dirname, '..');
const cached = path.join(root, '.cache', 'corpora', 'livemcptool', 'tools.json');
let args;
try {
  args = benchDiscoveryArgs(process.argv.slice(2), { root, cachedCorpus: fs.existsSync(cached) ? cached : undefined });
} catch (e) {
  console.error(`make bench-discovery: ${e.message}`);
  process.exit(2);
}
try {
  await $({ cwd: root, stdio: 'inherit' })`node bin/mcpgauge.mjs ${args}`;
} catch (e) {
  process.exit(e.exitCode ?? 1);
}
