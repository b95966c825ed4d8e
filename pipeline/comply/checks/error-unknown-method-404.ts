import { HTTP_ONLY, MODERN_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'error-unknown-method-404',
    title: 'Over HTTP an unknown method answers 404 with -32601',
    category: 'errors',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['lifecycle-handshake', 'error-unknown-method'],
    probes: ['unknown-method'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#server-validation'),
      requirement: 'Over HTTP, server MUST answer a method it does not know with status 404 and error -32601 (Method not found).',
    },
    knob: 'unknown-method-200',
    fix: 'Send unknown-method errors with HTTP status 404.',
  },
  (v) => {
    const st = v.status('unknown-method');
    return st === 404 ? pass('404') : fail(`unknown method answered with HTTP ${st}`);
  },
);
