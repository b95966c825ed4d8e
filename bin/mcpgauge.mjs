#!/usr/bin/env node
// Entry point: runs the compiled code in dist/ (`make build`). `mcpgauge fixture` gets the
// fixture's signal handlers before anything loads (./early-signals.mjs).
if (process.argv[2] === 'fixture') await import('./early-signals.mjs');
const { importDist } = await import('./dist-entry.mjs');
const { main } = await importDist('cli');
await main(process.argv);
