#!/usr/bin/env zx
// `make bench-discovery`: the default profile. Offline arms + retrieval on the frozen corpus
// (plus any corpus fetched into .cache/ by `make fetch`), then the live stage against the
// embedded default proxy. Extra CLI flags pass through: make bench-discovery ARGS="--no-live".
import { $, argv, fs, path } from 'zx';
$.verbose = true;
const root = path.resolve(import.meta.dirname, '..');
const out = argv.out ?? path.join(root, 'results', 'discovery');
const noLive = process.argv.includes('--no-live');
const args = ['bench', '--out', out, ...(noLive ? [] : ['--live'])];
const cached = path.join(root, '.cache', 'corpora', 'livemcptool', 'tools.json');
if (fs.existsSync(cached)) args.push('--extra-corpus', cached);
const pass = process.argv.slice(2).filter((a) => !a.startsWith('--out') && a !== '--no-live');
try {
  await $({ cwd: root, stdio: 'inherit' })`node bin/mcpgauge.mjs ${args} ${pass}`;
} catch (e) {
  process.exit(e.exitCode ?? 1);
}
