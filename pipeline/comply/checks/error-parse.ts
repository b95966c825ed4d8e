import { ANY_WIRE, BOTH_ERAS, defineCheck, rawErrorVerdict, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-parse',
    title: 'Malformed JSON is answered with an error response',
    category: 'errors',
    severity: 'MUST',
    basis: 'json-rpc',
    clientOnlyOn: ['stdio'],
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake'],
    probes: ['parse-error'],
    spec: {
      url: specUrl(LEGACY, 'basic#error-responses'),
      requirement:
        'Summary: MCP messages follow JSON-RPC 2.0 (a MUST), and JSON-RPC 2.0 answers unparseable input with an error response (id null, Parse error); MCP itself states no server rule for it (weighed as SHOULD). On stdio the rule binds the client, which must not write anything that is not a valid message: not graded there.',
    },
    knob: 'parse-error-silent',
    fix: 'Reply to unparseable input with {"jsonrpc":"2.0","id":null,"error":{"code":-32700,…}} and keep serving.',
  },
  (v) => rawErrorVerdict(v, 'parse-error', []),
);
