#!/usr/bin/env node
// `mcpfixture` = `mcpgauge fixture`: the deterministic, fault-injecting MCP server.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../pipeline/cli.ts');
await main([process.argv[0], process.argv[1], 'fixture', ...process.argv.slice(2)]);
