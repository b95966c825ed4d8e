import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-parse-code',
    title: 'The parse error is -32700',
    category: 'errors',
    severity: 'SHOULD',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake', 'error-parse'],
    probes: ['parse-error'],
    spec: { url: specUrl(LEGACY, 'basic#error-codes'), sentence: 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification, which defines -32700 Parse error: invalid JSON was received by the server.' },
    knob: 'parse-error-wrong-code',
    fix: 'Use code -32700 for malformed JSON.',
  },
  (v) => {
    const gate = v.unusable('parse-error', [-32700]);
    if (gate) return gate;
    const e = v.x('parse-error')!;
    if (e.error?.kind === 'died') return fail(`the server died: ${e.error.detail}`);
    const err = v.error('parse-error');
    const codes: number[] = [-32700];
    if (!err) {
      const st = e.response?.status;
      return fail(v.http && st !== undefined ? `HTTP ${st} without a JSON-RPC error body` : 'no error response came back');
    }
    if (codes.length && !codes.includes(err.code)) return fail(`error code ${err.code}, expected ${codes.join(' or ')}`);
    return pass(`error ${err.code}${v.http ? ` (HTTP ${e.response?.status})` : ''}`);
  },
);
