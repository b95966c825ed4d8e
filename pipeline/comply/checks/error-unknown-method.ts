import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'error-unknown-method',
    title: 'An unknown method is answered with a JSON-RPC error',
    category: 'errors',
    severity: 'MUST',
    basis: 'json-rpc',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['unknown-method', 'twin'],
    spec: {
      url: specUrl(LEGACY, 'basic#responses'),
      requirement:
        'Server answers every request, and a request for a method it does not have gets an error, not a result or silence. JSON-RPC 2.0 rule, which MCP messages MUST follow: weighed as SHOULD.',
    },
    knob: 'unknown-method-ok',
    fix: 'Answer unknown methods with a JSON-RPC error.',
  },
  (v) => v.rejected('unknown-method', 'mcpgauge/no-such-method', { codes: undefined, bareStatusOk: false }),
);
