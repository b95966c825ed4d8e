import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-post',
    title: 'The MCP endpoint accepts a JSON-RPC request by POST (2xx)',
    category: 'transport',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    probes: ['handshake'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#sending-messages'),
      requirement:
        'Server accepts JSON-RPC requests POSTed to its MCP endpoint, since clients MUST send every message as its own POST there.',
    },
    knob: 'post-405',
    fix: 'Serve POST on the MCP endpoint; a 404 usually means the wrong path or a legacy HTTP+SSE server.',
  },
  (v) => {
    const gate = v.unusable('handshake');
    if (gate) return gate;
    const e = v.x('handshake')!;
    if (!e.response) return fail(`no HTTP answer: ${e.error?.detail ?? 'none'}`);
    const st = e.response.status!;
    if (st >= 200 && st < 300) return pass(`HTTP ${st}`);
    return fail(`POST answered HTTP ${st}${st === 404 || st === 405 ? ' (wrong path, or a legacy HTTP+SSE endpoint?)' : ''}`);
  },
);
