import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-invalid-request-code',
    title: 'The invalid-request error is -32600',
    category: 'errors',
    severity: 'SHOULD',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake', 'error-invalid-request'],
    probes: ['invalid-request'],
    spec: { url: specUrl(LEGACY, 'basic#error-codes'), sentence: 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification, which defines -32600 Invalid Request: the JSON sent is not a valid Request object.' },
    knob: 'invalid-request-wrong-code',
    fix: 'Use code -32600 for invalid request objects.',
  },
  (v) => {
    const gate = v.unusable('invalid-request', [-32600]);
    if (gate) return gate;
    const e = v.x('invalid-request')!;
    if (e.error?.kind === 'died') return fail(`the server died: ${e.error.detail}`);
    const err = v.error('invalid-request');
    const codes: number[] = [-32600];
    if (!err) {
      const st = e.response?.status;
      return fail(v.http && st !== undefined ? `HTTP ${st} without a JSON-RPC error body` : 'no error response came back');
    }
    if (codes.length && !codes.includes(err.code)) return fail(`error code ${err.code}, expected ${codes.join(' or ')}`);
    return pass(`error ${err.code}${v.http ? ` (HTTP ${e.response?.status})` : ''}`);
  },
);
