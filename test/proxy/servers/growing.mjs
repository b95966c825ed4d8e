// A small real MCP stdio server whose tool list grows at runtime: `grow {name, description}`
// registers a new tool and announces it with notifications/tools/list_changed.
// Used by the proxy tests to check re-indexing on a changed upstream tool list.
import { McpServer, fromJsonSchema } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const server = new McpServer({ name: 'growing', version: '0.0.1' }, { capabilities: { tools: { listChanged: true } } });
const obj = (properties, required = []) => fromJsonSchema({ type: 'object', properties, required });
server.registerTool(
  'grow',
  {
    description: 'Adds a tool to this server.',
    inputSchema: obj({ name: { type: 'string' }, description: { type: 'string' } }, ['name', 'description']),
  },
  async ({ name, description }) => {
    server.registerTool(name, { description, inputSchema: obj({}) }, async () => ({ content: [{ type: 'text', text: `${name} ran` }] }));
    return { content: [{ type: 'text', text: `added ${name}` }] };
  },
);
await server.connect(new StdioServerTransport());
