import { ANY_WIRE, BOTH_ERAS, defineCheck, isObj, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-jsonrpc-envelope',
    title: 'Every response is JSON-RPC 2.0: jsonrpc "2.0", exactly one of result/error, integer error code',
    category: 'schema',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic#messages'),
      requirement:
        'Server MUST send well-formed JSON-RPC 2.0 responses: jsonrpc "2.0", exactly one of result or error, and an integer code in an error.',
    },
    knob: 'bad-jsonrpc',
    fix: 'Send {"jsonrpc":"2.0","id":…} with either result or error {code:int, message:string}.',
  },
  (v) => {
    const bad: string[] = [];
    for (const { ex, msg } of v.responses()) {
      const where = v.requestMethod(ex) ?? ex.probe;
      if (msg.jsonrpc !== '2.0') bad.push(`${where}: jsonrpc ${JSON.stringify(msg.jsonrpc)}`);
      if ('result' in msg && 'error' in msg) bad.push(`${where}: both result and error`);
      if ('error' in msg) {
        const e = msg.error;
        if (!isObj(e) || !Number.isInteger(e.code) || typeof e.message !== 'string')
          bad.push(`${where}: malformed error ${JSON.stringify(e).slice(0, 80)}`);
      }
    }
    return problems(bad, `${v.responses().length} responses well-formed`);
  },
);
