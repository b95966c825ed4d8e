#!/usr/bin/env zx
// `make freeze`: boot the npm reference MCP servers over stdio and freeze a NEW versioned corpus
// into datasets/ (frozen versions are immutable). Without --version the next unused
// corpus-npm4-vN is chosen. Extra flags pass through, e.g.
//   make freeze ARGS="--version corpus-npm4-v2"      make freeze ARGS="--with-fixture"
import { $, path } from 'zx';
import { freezeArgs } from './lib/args.mjs';
$.verbose = false;
const root = path.resolve(import.meta.dirname, '..');
const args = freezeArgs(process.argv.slice(2));
try {
  await $({ cwd: root, stdio: 'inherit' })`node bin/mcpgauge.mjs ${args}`;
} catch (e) {
  process.exit(e.exitCode ?? 1);
}
