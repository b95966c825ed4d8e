import { ANY_WIRE, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'lifecycle-log-level-invalid',
    title: 'An unknown _meta logLevel is refused with -32602',
    category: 'lifecycle',
    severity: 'SHOULD',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    capability: 'logging',
    probes: ['log-level-bad', 'log-level-ok'],
    spec: {
      url: specUrl(MODERN, 'server/utilities/logging#per-request-log-level'),
      requirement: 'Server SHOULD refuse a request whose _meta logLevel is not a known level with error -32602 (Invalid params).',
    },
    knob: 'accept-bad-log-level',
    fix: 'Validate _meta["io.modelcontextprotocol/logLevel"] against the eight RFC 5424 names and answer -32602 (HTTP 400) otherwise.',
  },
  (v) => v.rejected('log-level-bad', 'discover with logLevel "mcpgauge-loud"', { twin: 'log-level-ok', codes: [INVALID_PARAMS] }),
);
