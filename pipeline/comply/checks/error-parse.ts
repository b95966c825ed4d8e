import { ANY_WIRE, BOTH_ERAS, defineCheck, rawErrorVerdict, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-parse',
    title: 'Malformed JSON is answered with an error response',
    category: 'errors',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake'],
    probes: ['parse-error'],
    spec: { url: specUrl(LEGACY, 'basic#error-codes'), sentence: 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification; a message that cannot be parsed is answered with an error response whose id is null (Parse error).' },
    knob: 'parse-error-silent',
    fix: 'Reply to unparseable input with {"jsonrpc":"2.0","id":null,"error":{"code":-32700,…}} and keep serving.',
  },
  (v) => rawErrorVerdict(v, 'parse-error', []),
);
