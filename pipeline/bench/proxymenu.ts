/**
 * The reference proxy's own menu (its tools/list), captured over MCP stdio from the real
 * proxy process and frozen as a corpus file. The offline stage uses it as the discovery menu
 * for break-even; a test re-captures it to catch drift between the file and the proxy.
 */
import { REPO_ROOT as ROOT } from '../constants.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolRecord } from '../types.ts';
import { toolRecordOf } from '../mcp/tool-record.ts';
import { connectMcp } from '../mcp/client.ts';
import { serializeFrozen } from '../corpus/frozen.ts';
import { compareIds } from '../corpus/record.ts';

export const PROXY_MENU_SERVER = 'mcpgauge-proxy';
export const PROXY_MENU_VERSION = 'proxy-menu-v1';

/** Boot `mcpgauge proxy --transport stdio` over one small upstream and list its tools. */
export async function captureProxyMenu(): Promise<ToolRecord[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-proxymenu-'));
  try {
    const cfg = join(dir, 'proxy.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        servers: [
          {
            name: 'memory',
            command: process.execPath,
            args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
            env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
          },
        ],
      }),
    );
    const conn = await connectMcp(
      {
        kind: 'stdio',
        command: process.execPath,
        args: [join(ROOT, 'bin/mcpgauge.mjs'), 'proxy', '--config', cfg, '--transport', 'stdio'],
      },
      { timeoutMs: 60_000 },
    );
    try {
      const tools = await conn.listAllTools();
      return tools.map((t) => toolRecordOf(PROXY_MENU_SERVER, t)).sort((a, b) => compareIds(a.tool_id, b.tool_id));
    } finally {
      await conn.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function serializeProxyMenu(tools: ToolRecord[]): string {
  return serializeFrozen({
    version: PROXY_MENU_VERSION,
    name: 'mcpgauge reference discovery proxy: its own tools/list',
    license: 'MIT',
    generated_from: {
      generator: 'scripts/freeze-proxy-menu.mjs (mcpgauge proxy --transport stdio, tools/list over MCP)',
      note: 'the discovery menu an agent sees instead of the full upstream catalog',
    },
    tools,
  });
}
