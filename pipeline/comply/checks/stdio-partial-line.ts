import { BOTH_ERAS, STDIO_ONLY, defineCheck, pass, specUrl } from '../check.ts';
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
    spec: { url: specUrl(LEGACY, 'basic/transports#stdio'), requirement: 'Messages are delimited by newlines, and MUST NOT contain embedded newlines (the newline, not the read boundary, ends a message).' },
    knob: 'stdio-no-reassemble',
    fix: 'Buffer stdin until the newline before parsing.',
  },
  (v) => {
    if (!v.twinServed('twin')) return { status: 'not_evaluable', reason: 'twin_failed', detail: 'the same request in one write was not served either' };
    const r = v.served('partial-line', 'request written in two chunks');
    return 'ok' in r ? pass('served') : r;
  },
);
