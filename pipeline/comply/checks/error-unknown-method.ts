import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-unknown-method',
    title: 'An unknown method is answered with a JSON-RPC error',
    category: 'errors',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['unknown-method', 'twin'],
    spec: { url: specUrl(LEGACY, 'basic#responses'), sentence: 'Responses are sent in reply to requests, containing either the result or error of the operation; a request for a method the server does not have is an error (JSON-RPC: Method not found).' },
    knob: 'unknown-method-ok',
    fix: 'Answer unknown methods with a JSON-RPC error.',
  },
  (v) => v.rejected('unknown-method', 'mcpgauge/no-such-method', { codes: undefined, bareStatusOk: false }),
);
