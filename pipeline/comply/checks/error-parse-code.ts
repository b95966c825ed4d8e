import { ANY_WIRE, BOTH_ERAS, defineCheck, rawErrorVerdict, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

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
    spec: { url: specUrl(LEGACY, 'basic#error-responses'), requirement: 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification, which defines -32700 Parse error: invalid JSON was received by the server.' },
    knob: 'parse-error-wrong-code',
    fix: 'Use code -32700 for malformed JSON.',
  },
  (v) => rawErrorVerdict(v, 'parse-error', [-32700]),
);
