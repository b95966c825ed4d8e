import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-parse',
    title: 'Malformed JSON is answered with an error response',
    category: 'errors',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['lifecycle-handshake'],
    probes: ['parse-error'],
    spec: { url: specUrl(LEGACY, 'basic#error-codes'), sentence: 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification; a message that cannot be parsed is answered with an error response whose id is null (Parse error).' },
    knob: 'parse-error-silent',
    fix: 'Reply to unparseable input with {"jsonrpc":"2.0","id":null,"error":{"code":-32700,…}} and keep serving.',
  },
  (v) => {
    const gate = v.unusable('parse-error', []);
    if (gate) return gate;
    const e = v.x('parse-error')!;
    if (e.error?.kind === 'died') return fail(`the server died: ${e.error.detail}`);
    const err = v.error('parse-error');
    const codes: number[] = [];
    if (!err) {
      const st = e.response?.status;
      return fail(v.http && st !== undefined ? `HTTP ${st} without a JSON-RPC error body` : 'no error response came back');
    }
    if (codes.length && !codes.includes(err.code)) return fail(`error code ${err.code}, expected ${codes.join(' or ')}`);
    return pass(`error ${err.code}${v.http ? ` (HTTP ${e.response?.status})` : ''}`);
  },
);
