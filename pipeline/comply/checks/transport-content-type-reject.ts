import { BOTH_ERAS, HTTP_ONLY, defineCheck, specUrl } from '../judge/check.ts';
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
        "Best practice: server refuses (e.g. 415) a POST whose body is declared as something other than JSON. The spec's MUST is on the client, which sends one JSON-RPC message per POST, and names no server status.",
    },
    knob: 'accept-any-content-type',
    fix: 'Refuse POST bodies whose Content-Type is not application/json (415 Unsupported Media Type).',
  },
  (v) => v.rejected('content-type-text', 'a conformant request labelled Content-Type: text/plain', { bareStatusOk: true }),
);
