import { ANY_WIRE, BOTH_ERAS, defineCheck, rawErrorVerdict, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { PARSE_ERROR } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'error-parse-code',
    title: 'The parse error is -32700',
    category: 'errors',
    severity: 'SHOULD',
    basis: 'json-rpc',
    clientOnlyOn: ['stdio'],
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake', 'error-parse'],
    probes: ['parse-error'],
    spec: {
      url: specUrl(LEGACY, 'basic#error-responses'),
      requirement:
        "Server uses code -32700 (Parse error) when it cannot parse the JSON it got. The code is JSON-RPC 2.0's, which MCP messages MUST follow: weighed as SHOULD; not graded on stdio, where the client must not send bad JSON.",
    },
    knob: 'parse-error-wrong-code',
    fix: 'Use code -32700 for malformed JSON.',
  },
  (v) => rawErrorVerdict(v, 'parse-error', [PARSE_ERROR]),
);
