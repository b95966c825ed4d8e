import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'error-missing-tool-name',
    title: 'tools/call without a name is rejected with -32602',
    category: 'errors',
    severity: 'best-practice',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-call'],
    probes: ['tools-call-no-name', 'tools-call'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#error-handling'),
      requirement:
        'Summary: a tools/call that fails the CallToolRequest schema (name is required) is a protocol error per the tools page; -32602 (Invalid params) is the JSON-RPC code for it, implied but never required by MCP: graded as a best practice.',
    },
    knob: 'missing-name-ok',
    fix: 'Validate tools/call params: answer -32602 when name is missing.',
  },
  (v) => v.rejected('tools-call-no-name', 'tools/call without name', { twin: 'tools-call', codes: [INVALID_PARAMS] }),
);
