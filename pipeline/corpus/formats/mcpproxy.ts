/** The Go predecessor's corpus (`{tools: [{tool_id, server, tool, description, schema?}]}`; v1 without schemas, v2 with). */
import { isMcpproxyShape, loadMcpproxy } from '../mcpproxy.ts';
import type { FileFormat } from './types.ts';

export const mcpproxyFormat: FileFormat<'mcpproxy'> = {
  format: 'mcpproxy',
  input: 'file',
  description: 'the mcpproxy corpus (object with tools[0].tool_id; v1 without schemas, v2 with)',
  expects: 'a mcpproxy corpus {tools:[{tool_id,...}]}',
  sniff: isMcpproxyShape,
  load: loadMcpproxy,
};
