#!/usr/bin/env node
// Entry point: runs the TypeScript sources through tsx (no build step).
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../pipeline/cli.ts');
await main(process.argv);
