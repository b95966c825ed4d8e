import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_DISCOVERY_MENU } from '../../pipeline/constants.ts';
import { captureProxyMenu, serializeProxyMenu } from '../../pipeline/bench/proxymenu.ts';

test('the frozen discovery menu equals what the reference proxy serves over MCP (run scripts/freeze-proxy-menu.mjs after changing it)', async () => {
  const tools = await captureProxyMenu();
  assert.deepEqual(
    tools.map((t) => t.tool),
    ['call_tool', 'describe_tool', 'retrieve_tools', 'upstream_servers'],
  );
  assert.equal(serializeProxyMenu(tools), readFileSync(DEFAULT_DISCOVERY_MENU, 'utf8'));
});
