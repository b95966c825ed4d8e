import { ANY_WIRE, BOTH_ERAS, defineCheck, rawErrorVerdict, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

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
    spec: { url: specUrl(LEGACY, 'basic#error-responses'), requirement: 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification, which defines -32600 Invalid Request: the JSON sent is not a valid Request object.' },
    knob: 'invalid-request-wrong-code',
    fix: 'Use code -32600 for invalid request objects.',
  },
  (v) => rawErrorVerdict(v, 'invalid-request', [-32600]),
);
