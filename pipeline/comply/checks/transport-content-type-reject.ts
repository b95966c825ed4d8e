import { BOTH_ERAS, HTTP_ONLY, defineCheck, specUrl } from '../check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-content-type-reject',
    title: 'A POST labelled text/plain is refused, not parsed as JSON-RPC',
    category: 'transport',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['content-type-text', 'twin'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#sending-messages'),
      requirement:
        'The body of the POST request MUST be a single JSON-RPC request or notification (a client duty; the spec names no server status, so refusing a body declared as something else, e.g. 415, is graded as a best practice).',
    },
    knob: 'accept-any-content-type',
    fix: 'Refuse POST bodies whose Content-Type is not application/json (415 Unsupported Media Type).',
  },
  (v) => v.rejected('content-type-text', 'a conformant request labelled Content-Type: text/plain', { bareStatusOk: true }),
);
