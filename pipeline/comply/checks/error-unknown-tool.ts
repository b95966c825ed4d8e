import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'error-unknown-tool',
    title: 'tools/call of an unknown tool is a JSON-RPC protocol error (-32602), not an isError result',
    category: 'errors',
    severity: 'best-practice',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-call'],
    probes: ['tools-call-unknown', 'tools-call'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#error-handling'),
      requirement:
        'Summary: the tools page lists an unknown tool among the protocol errors (a JSON-RPC error, its example uses -32602) as opposed to tool execution errors (a result with isError true); no RFC 2119 keyword, so graded as a best practice.',
    },
    knob: 'unknown-tool-ok',
    fix: 'Answer tools/call of an unknown name with -32602.',
  },
  (v) => v.rejected('tools-call-unknown', 'unknown tool', { twin: 'tools-call', codes: [INVALID_PARAMS] }),
);
