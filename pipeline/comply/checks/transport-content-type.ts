import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-content-type',
    title: 'A request is answered as application/json or text/event-stream',
    category: 'transport',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['handshake'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#sending-messages'),
      requirement:
        'Server MUST answer a POSTed request either as one JSON object (application/json) or as an SSE stream (text/event-stream).',
    },
    knob: 'content-type-text',
    fix: 'Answer requests with Content-Type application/json or text/event-stream.',
  },
  (v) => {
    const ct = (v.header('handshake', 'content-type') ?? '').toLowerCase();
    return ct.startsWith('application/json') || ct.startsWith('text/event-stream') ? pass(ct) : fail(`Content-Type ${JSON.stringify(ct)}`);
  },
);
