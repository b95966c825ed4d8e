import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'error-invalid-cursor',
    title: 'An invalid pagination cursor is answered with -32602',
    category: 'errors',
    severity: 'SHOULD',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list-bad-cursor', 'tools-list'],
    spec: {
      url: specUrl(LEGACY, 'server/utilities/pagination#error-handling'),
      requirement: 'Server SHOULD answer a list request whose cursor it never issued with error -32602 (Invalid params).',
    },
    knob: 'cursor-ignored',
    fix: 'Reject cursors you did not issue with -32602.',
  },
  (v) => v.rejected('tools-list-bad-cursor', 'tools/list with a forged cursor', { twin: 'tools-list', codes: [INVALID_PARAMS] }),
);
