#!/usr/bin/env node
// `mcpfixture` = `mcpgauge fixture`: the deterministic, fault-injecting MCP server.
// Signal handlers first (./early-signals.mjs), then the fixture's own bundle
// (dist/fixture-bundle/fixture.cjs, scripts/lib/bundle.mjs bundleLight: the compiled fixture
// entry with the packages it imports, one CommonJS file run with V8's code cache by
// ./dist-entry.mjs requireLight), which holds only the fixture (not the other mcpgauge commands).
import './early-signals.mjs';
import { requireLight } from './dist-entry.mjs';

requireLight('fixture', 'fixture-bundle');
