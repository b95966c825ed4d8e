#!/usr/bin/env node
// `make test-quick`: the unit layer (scripts/lib/test-layers.mjs UNIT) for the inner loop, run by
// scripts/test.mjs (the same build, design checks, private TMPDIR and leftover check as `make test`)
// with scripts/lib/unit-guard.mjs preloaded into every test file's process, so a listed file that
// starts a process or opens a port fails here. `make test` stays the full suite (and what CI runs).
// The static model is fetched first when missing (one PyPI download, once; the unit files use it).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UNIT } from './lib/test-layers.mjs';

const root = resolve(import.meta.dirname, '..');
const node = (args, env = process.env) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env }).status ?? 2;
const t0 = Date.now();
let code = node([join(root, 'scripts', 'build.mjs')]);
if (code !== 0) process.exit(code);
// a no-op (sha256 check) when cached; offline, the embed_static rows skip and say why
if (node([join(root, 'bin', 'mcpgauge.mjs'), 'models', 'fetch']) !== 0)
  console.error('test-quick: static model not available; its tests skip or fail with the reason');
const guard = `--import=${pathToFileURL(join(root, 'scripts', 'lib', 'unit-guard.mjs')).href}`;
const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, guard].filter(Boolean).join(' ') };
console.error(`test-quick: ${UNIT.length} unit-layer files (scripts/lib/test-layers.mjs) ...`);
code = node([join(root, 'scripts', 'test.mjs'), ...UNIT], env);
console.error(`test-quick: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(code);
