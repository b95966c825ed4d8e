// A stdio MCP server that leaves a child of its own behind (as an npx or shell wrapper does): it
// starts a long `sleep` in its process group, then serves as the project's fixture. The test finds
// both by the tag in their environment.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
spawn('sleep', ['300'], { stdio: 'ignore', env: process.env });
process.argv = [process.argv[0], fileURLToPath(new URL('../../../bin/mcpfixture.mjs', import.meta.url)), '--transport', 'stdio'];
await import('../../../bin/mcpfixture.mjs');
