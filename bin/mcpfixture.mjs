#!/usr/bin/env node
// `mcpfixture` = `mcpgauge fixture`: the deterministic, fault-injecting MCP server.
// Signal handlers first (./early-signals.mjs), then the compiled fixture entry, which loads
// only the fixture (not the other mcpgauge commands).
import './early-signals.mjs';
import { importDist } from './dist-entry.mjs';

await importDist('cli/fixture-entry');
