/**
 * compact_json: minified JSON, the fair comparison for TOON.
 * One tool = `{"name":…,"description":…,"inputSchema":<canonical>}` (outer keys in this fixed
 * order, `inputSchema` omitted without a schema); the listing is one JSON array of those objects.
 *
 * altersIndex = false: the index document carries exactly the same information as baseline's
 * (bare name, description, canonical schema text). Only the envelope the model reads changes
 * (JSON quoting/escaping of name and description); a search index works on the field values, which
 * are byte-identical, so re-indexing would score the same documents. The contract test in
 * test/arms/contract.test.ts checks the declaration both ways.
 */
import type { Arm } from '../types.ts';
import { canonicalSchema, hasSchema } from '../schema.ts';
import type { ToolRecord } from '../../pipeline/types.ts';
import { baselineIndexDoc } from './baseline_json.ts';

const ID = 'compact_json';

function renderTool(tool: ToolRecord): string {
  const head = `{"name":${JSON.stringify(tool.tool)},"description":${JSON.stringify(tool.description)}`;
  return hasSchema(tool) ? `${head},"inputSchema":${canonicalSchema(ID, tool)}}` : `${head}}`;
}

export const arm: Arm = {
  meta: {
    id: ID,
    kind: 'listing',
    description: 'Minified JSON objects {name, description, inputSchema}; the listing is one JSON array.',
    altersIndex: false,
    lowerBound: false,
    retryRate: 0,
  },
  available: async () => null,
  renderTool,
  renderListing: (tools) => `[${tools.map(renderTool).join(',')}]`,
  indexDoc: (tool) => baselineIndexDoc(tool, ID),
};
export default arm;
