/**
 * baseline_json: the reference presentation every saving is measured against.
 * One tool = `name\ndescription` plus `\n<canonical JSON of inputSchema>` when the tool has a
 * schema; the listing joins tools with a blank line. The index sees the tool unchanged.
 */
import type { Arm } from '../types.ts';
import { canonicalSchema, hasSchema } from '../schema.ts';
import type { IndexDoc, ToolRecord } from '../../pipeline/types.ts';

const ID = 'baseline_json';

function renderTool(tool: ToolRecord): string {
  const head = `${tool.tool}\n${tool.description}`;
  return hasSchema(tool) ? `${head}\n${canonicalSchema(ID, tool)}` : head;
}

/** The baseline index document: name, description and canonical schema text ("" without a schema). */
export function baselineIndexDoc(tool: ToolRecord, armId: string = ID): IndexDoc {
  return {
    tool_id: tool.tool_id,
    server: tool.server,
    name: tool.tool,
    description: tool.description,
    params: canonicalSchema(armId, tool),
  };
}

export const arm: Arm = {
  meta: {
    id: ID,
    kind: 'listing',
    description: 'Tool name, description and canonical JSON input schema, one block per tool (the reference).',
    altersIndex: false,
    lowerBound: false,
    retryRate: 0,
  },
  available: async () => null,
  renderTool,
  renderListing: (tools) => tools.map(renderTool).join('\n\n'),
  indexDoc: (tool) => baselineIndexDoc(tool),
};
export default arm;
