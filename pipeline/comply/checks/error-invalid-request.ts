import { ANY_WIRE, BOTH_ERAS, defineCheck, rawErrorVerdict, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-invalid-request',
    title: 'A JSON object that is not a valid request is answered with an error',
    category: 'errors',
    severity: 'MUST',
    basis: 'json-rpc',
    clientOnlyOn: ['stdio'],
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake'],
    probes: ['invalid-request'],
    spec: {
      url: specUrl(LEGACY, 'basic#error-responses'),
      requirement:
        'Server answers a request whose method is not a string with an error response. JSON-RPC 2.0 rule, which MCP messages MUST follow: weighed as SHOULD; not graded on stdio, where the client must not send it.',
    },
    knob: 'invalid-request-silent',
    fix: 'Reply to invalid requests (e.g. a non-string method) with an error response.',
  },
  (v) => rawErrorVerdict(v, 'invalid-request', []),
);
