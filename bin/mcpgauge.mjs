#!/usr/bin/env node
// Entry point: runs the bundled CLI, dist/bundle/cli.js (`make build`; scripts/lib/bundle.mjs);
// `mcpgauge proxy …` runs the proxy's own bundle, dist/proxy-bundle/proxy.cjs (the same subcommand
// and flags, pipeline/cli/proxy-main.ts, with the MCP SDK bundled in: a faster start), and
// `mcpgauge comply …` comply's, dist/comply-bundle/comply.cjs (pipeline/cli/comply-main.ts: the
// server under test is spawned ~50 ms sooner), and `mcpgauge bench …` bench's,
// dist/bench-bundle/bench.cjs (pipeline/cli/bench-main.ts); each one CommonJS file run with V8's
// code cache (./dist-entry.mjs requireLight).
// V8's compile cache where this node offers it (module.enableCompileCache, Node >= 22.1; Node 20
// has none, so there it is a no-op). `mcpgauge fixture` gets the fixture's signal handlers before
// anything loads (./early-signals.mjs).
if (process.argv[2] === 'fixture') await import('./early-signals.mjs');
const { enableCompileCache } = await import('node:module');
if (typeof enableCompileCache === 'function') enableCompileCache();
const { importDist, requireLight } = await import('./dist-entry.mjs');
/** the subcommands with a bundle of their own (scripts/lib/bundle.mjs LIGHT_BUNDLES) */
const LIGHT = { proxy: 'proxy-bundle', comply: 'comply-bundle', bench: 'bench-bundle' };
const light = LIGHT[process.argv[2]];
const { main } = light ? requireLight(process.argv[2], light) : await importDist('cli', 'bundle');
await main(process.argv);
