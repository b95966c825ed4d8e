#!/usr/bin/env node
// `mcpfixture` = `mcpgauge fixture`: the deterministic, fault-injecting MCP server.
// Signal handlers first (./early-signals.mjs), then the fixture's own bundle
// (dist/fixture-bundle/fixture.js, scripts/lib/bundle.mjs bundleLight: the compiled fixture
// entry with the packages it imports), which holds only the fixture (not the other mcpgauge commands).
import './early-signals.mjs';
import { importDist } from './dist-entry.mjs';

await importDist('fixture', 'fixture-bundle');
