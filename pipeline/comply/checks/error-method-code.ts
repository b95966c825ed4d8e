import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { METHOD_NOT_FOUND } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'error-method-code',
    title: 'The unknown-method error is exactly -32601',
    category: 'errors',
    severity: 'MUST',
    basis: 'json-rpc',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake', 'error-unknown-method'],
    probes: ['unknown-method', 'twin'],
    spec: {
      url: specUrl(LEGACY, 'basic#error-responses'),
      requirement:
        "Server uses code -32601 (Method not found) for a method it does not offer. The code is JSON-RPC 2.0's, which MCP messages MUST follow: weighed as SHOULD.",
    },
    knob: 'unknown-method-wrong-code',
    fix: 'Use -32601 for unknown methods.',
  },
  (v) => v.rejected('unknown-method', 'mcpgauge/no-such-method', { codes: [METHOD_NOT_FOUND] }),
);
