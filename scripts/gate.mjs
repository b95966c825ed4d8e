#!/usr/bin/env zx
// `make gate`: the release gate against the proxy in gate.config.json (the reference proxy by default).
// ARGS pass through to `mcpgauge gate`, e.g. make gate ARGS="--cells stdio/2025-11-25 --proxy-cmd '...'".
// Exit code: 0 green, 1 a check failed, 2 harness error.
import { $, path } from 'zx';
const root = path.resolve(import.meta.dirname, '..');
const pass = process.argv.slice(2).filter((a) => a !== '--');
try {
  await $({ cwd: root, stdio: 'inherit' })`node bin/mcpgauge.mjs gate ${pass}`;
} catch (e) {
  process.exit(e.exitCode ?? 2);
}
