import { ANY_WIRE, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';
import { METHOD_NOT_FOUND } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'lifecycle-removed-methods',
    title: 'ping (removed in 2026-07-28) is answered with -32601',
    category: 'lifecycle',
    severity: 'SHOULD',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['ping'],
    spec: {
      url: specUrl(MODERN, 'changelog#major-changes'),
      requirement:
        'Server answers ping, which 2026-07-28 dropped, with -32601 like any method it does not have (no normative keyword; graded SHOULD).',
    },
    knob: 'ping-served',
    fix: 'Do not serve legacy-only methods on modern requests; answer -32601.',
  },
  (v) => v.rejected('ping', 'ping under 2026-07-28', { codes: [METHOD_NOT_FOUND] }),
);
