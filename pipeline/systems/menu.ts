/** A system's menu in tokens: its tools rendered like baseline_json (exactly as the live stage counts menus). */
import type { WireTool } from '../mcp/client.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { getArm } from '../../arms/registry.ts';
import { BASELINE_ARM_ID } from '../constants.ts';
import { recordOf } from '../live/live-stage.ts';

export function listingTokens(tools: readonly { server: string; tool: WireTool }[], tks: readonly Tokenizer[]): Record<string, number> {
  const text = getArm(BASELINE_ARM_ID).renderListing(tools.map((t) => recordOf(t.server, t.tool)));
  return Object.fromEntries(tks.map((tk) => [tk.name, tk.count(text)]));
}
