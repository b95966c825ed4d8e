#!/usr/bin/env zx
// `make fetch`: LiveMCPTool and ToolRet at pinned revisions into .cache/corpora/ (git-ignored).
// FROM=DIR (or ARGS="--from DIR") copies from an offline mirror instead of the network, e.g.
//   make fetch FROM=../shared/datasets
// Without network and without a mirror it says so in one line and exits non-zero.
import { $, path } from 'zx';
import { fetchArgs } from './lib/args.mjs';
$.verbose = false;
const root = path.resolve(import.meta.dirname, '..');
const args = fetchArgs(process.argv.slice(2), process.env);
try {
  await $({ cwd: root, stdio: 'inherit' })`node bin/mcpgauge.mjs ${args}`;
} catch (e) {
  process.exit(e.exitCode ?? 1);
}
