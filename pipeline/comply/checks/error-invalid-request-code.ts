import { ANY_WIRE, BOTH_ERAS, defineCheck, rawErrorVerdict, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_REQUEST } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'error-invalid-request-code',
    title: 'The invalid-request error is -32600',
    category: 'errors',
    severity: 'SHOULD',
    basis: 'json-rpc',
    clientOnlyOn: ['stdio'],
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake', 'error-invalid-request'],
    probes: ['invalid-request'],
    spec: {
      url: specUrl(LEGACY, 'basic#error-responses'),
      requirement:
        "Server uses code -32600 (Invalid Request) when the JSON it got is not a valid request. The code is JSON-RPC 2.0's, which MCP messages MUST follow: weighed as SHOULD; not graded on stdio, where the client must not send such a message.",
    },
    knob: 'invalid-request-wrong-code',
    fix: 'Use code -32600 for invalid request objects.',
  },
  (v) => rawErrorVerdict(v, 'invalid-request', [INVALID_REQUEST]),
);
