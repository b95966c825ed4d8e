import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-unknown-method',
    title: 'An unknown method is answered with a JSON-RPC error',
    category: 'errors',
    severity: 'MUST',
    basis: 'json-rpc',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['unknown-method', 'twin'],
    spec: { url: specUrl(LEGACY, 'basic#responses'), requirement: 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification: every request gets a response carrying a result or an error, and a method the server does not have is an error (Method not found).' },
    knob: 'unknown-method-ok',
    fix: 'Answer unknown methods with a JSON-RPC error.',
  },
  (v) => v.rejected('unknown-method', 'mcpgauge/no-such-method', { codes: undefined, bareStatusOk: false }),
);
