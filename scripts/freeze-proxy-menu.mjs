#!/usr/bin/env zx
// Re-captures datasets/proxy-menu-v1.tools.json from the running reference proxy (tools/list
// over MCP stdio). Run after changing the proxy's tool definitions; the tests catch drift.
import { $, path } from 'zx';
const root = path.resolve(import.meta.dirname, '..');
await $({ cwd: root, stdio: 'inherit' })`node --import tsx -e ${`
import { captureProxyMenu, serializeProxyMenu } from './pipeline/bench/proxymenu.ts';
import { writeFileAtomic } from './pipeline/util/fs.ts';
const tools = await captureProxyMenu();
writeFileAtomic('datasets/proxy-menu-v1.tools.json', serializeProxyMenu(tools));
console.log('wrote datasets/proxy-menu-v1.tools.json with', tools.length, 'tools');
`}`;
