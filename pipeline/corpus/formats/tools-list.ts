/** A raw MCP tools/list dump: `{tools: [{name, inputSchema}]}` or a JSON-RPC response holding it. */
import { isToolsListShape, loadToolsList } from '../toolslist.ts';
import type { FileFormat } from './types.ts';

export const toolsListFormat: FileFormat<'tools-list'> = {
  format: 'tools-list',
  input: 'file',
  description: 'a raw tools/list dump {tools:[{name,inputSchema}]} or a JSON-RPC response holding one',
  expects: 'a tools/list dump {tools:[{name,inputSchema}]}',
  sniff: isToolsListShape,
  load: loadToolsList,
};
