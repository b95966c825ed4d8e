import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-invalid-request',
    title: 'A JSON object that is not a valid request is answered with an error',
    category: 'errors',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake'],
    probes: ['invalid-request'],
    spec: { url: specUrl(LEGACY, 'basic#error-codes'), sentence: 'All messages MUST follow JSON-RPC 2.0: a request whose method is not a string is invalid and is answered with an error response.' },
    knob: 'invalid-request-silent',
    fix: 'Reply to invalid requests (e.g. a non-string method) with an error response.',
  },
  (v) => {
    const gate = v.unusable('invalid-request', []);
    if (gate) return gate;
    const e = v.x('invalid-request')!;
    if (e.error?.kind === 'died') return fail(`the server died: ${e.error.detail}`);
    const err = v.error('invalid-request');
    const codes: number[] = [];
    if (!err) {
      const st = e.response?.status;
      return fail(v.http && st !== undefined ? `HTTP ${st} without a JSON-RPC error body` : 'no error response came back');
    }
    if (codes.length && !codes.includes(err.code)) return fail(`error code ${err.code}, expected ${codes.join(' or ')}`);
    return pass(`error ${err.code}${v.http ? ` (HTTP ${e.response?.status})` : ''}`);
  },
);
