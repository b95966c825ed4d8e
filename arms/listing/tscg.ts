/**
 * tscg: the TSCG tool-schema compiler (`@tscg/core`, `compressToolSchema(tool, {model:
 * 'claude-sonnet', profile: 'balanced'})`, result `.compressed`), called in-process.
 * Usable only when `@tscg/core` can be imported; it is not on the registry this project installs
 * from, so here available() normally returns "skipped: @tscg/core not installed".
 *
 * The compiler rewrites descriptions (lowerBound = true) and the index sees its text
 * (altersIndex = true). Index document, from the compiled text (shape stated by the predecessor's
 * research note §3.5): `<name>: <description…>`, then lines starting with two spaces (params), then
 * a last line `[CLOSURE:…]`. description = the text between the name prefix and the params;
 * params = param lines + "\n" + closure line (or the closure alone).
 * NOTE: the call into @tscg/core is written against its documented API and the predecessor's
 * shim; it could not be exercised here (package absent). splitTscgEncoded is tested on the
 * predecessor's golden compiler outputs.
 */
import type { Arm } from '../types.ts';
import { ArmEncodeError } from '../errors.ts';
import { hasSchema } from '../schema.ts';
import type { ToolRecord } from '../../pipeline/types.ts';

const ID = 'tscg';
export const TSCG_MODULE = '@tscg/core';
export const TSCG_SKIP_REASON = 'skipped: @tscg/core not installed';

type CompressFn = (tool: unknown, options: unknown) => { compressed?: unknown };
let compress: CompressFn | null = null;

async function available(): Promise<string | null> {
  if (compress) return null;
  try {
    const mod = (await import(TSCG_MODULE)) as { compressToolSchema?: CompressFn; default?: { compressToolSchema?: CompressFn } };
    const fn = mod.compressToolSchema ?? mod.default?.compressToolSchema;
    if (typeof fn !== 'function') return 'skipped: @tscg/core has no compressToolSchema export';
    compress = fn;
    return null;
  } catch {
    return TSCG_SKIP_REASON;
  }
}

function renderTool(tool: ToolRecord): string {
  if (!compress) throw new ArmEncodeError(ID, 'arm used before available() confirmed @tscg/core', tool.tool_id);
  const input: Record<string, unknown> = { name: tool.tool, description: tool.description };
  if (hasSchema(tool)) input.input_schema = tool.inputSchema;
  let out: unknown;
  try {
    out = compress(input, { model: 'claude-sonnet', profile: 'balanced' })?.compressed;
  } catch (e) {
    throw new ArmEncodeError(ID, `compressToolSchema failed: ${(e as Error).message}`, tool.tool_id);
  }
  if (typeof out !== 'string' || out === '') throw new ArmEncodeError(ID, 'compressToolSchema returned an empty result', tool.tool_id);
  return out;
}

/**
 * Split compiled TSCG text into the index's description and params; the invariant
 * `${name}: ${description}\n${params}` === encoded holds. Throws ArmEncodeError on another shape.
 */
export function splitTscgEncoded(name: string, encoded: string, toolId = name): { description: string; params: string } {
  const prefix = `${name}: `;
  if (!encoded.startsWith(prefix)) throw new ArmEncodeError(ID, `compiled text does not start with "${prefix}"`, toolId);
  const body = encoded.slice(prefix.length);
  const cut = body.lastIndexOf('\n[CLOSURE:');
  if (cut < 0 || !body.endsWith(']')) throw new ArmEncodeError(ID, 'compiled text has no final [CLOSURE:…] line', toolId);
  const closure = body.slice(cut + 1);
  const lines = body.slice(0, cut).split('\n');
  let first = lines.length;
  while (first > 1 && lines[first - 1].startsWith('  ')) first--; // the first line is always description
  const description = lines.slice(0, first).join('\n');
  const paramLines = lines.slice(first);
  return { description, params: paramLines.length ? `${paramLines.join('\n')}\n${closure}` : closure };
}

export const arm: Arm = {
  meta: {
    id: ID,
    kind: 'listing',
    description: 'TSCG compiler output (@tscg/core, balanced profile): rewritten description, param lines, closure.',
    altersIndex: true,
    lowerBound: true,
    retryRate: 0,
  },
  available,
  renderTool,
  renderListing: (tools) => tools.map(renderTool).join('\n\n'),
  indexDoc: (tool) => {
    const { description, params } = splitTscgEncoded(tool.tool, renderTool(tool), tool.tool_id);
    return { tool_id: tool.tool_id, server: tool.server, name: tool.tool, description, params };
  },
};
export default arm;
