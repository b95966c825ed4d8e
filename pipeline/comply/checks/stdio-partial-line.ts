import { BOTH_ERAS, STDIO_ONLY, defineCheck, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'stdio-partial-line',
    title: 'A message arriving in two writes is reassembled up to its newline',
    category: 'transport',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: STDIO_ONLY,
    probes: ['partial-line', 'twin'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#stdio'),
      requirement:
        'Server reads a message up to its newline, however many writes it arrives in: the newline, not a read boundary, ends a message (newline framing is a MUST of the stdio transport).',
    },
    knob: 'stdio-no-reassemble',
    fix: 'Buffer stdin until the newline before parsing.',
  },
  (v) => {
    if (!v.twinServed('twin'))
      return { status: 'not_evaluable', reason: 'twin_failed', detail: 'the same request in one write was not served either' };
    const r = v.served('partial-line', 'request written in two chunks');
    return 'ok' in r ? pass('served') : r;
  },
);
