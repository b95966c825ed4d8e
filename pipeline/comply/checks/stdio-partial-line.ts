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
    probes: ['partial-line'],
    spec: { url: specUrl(LEGACY, 'basic/transports#stdio'), sentence: 'The server reads JSON-RPC messages from its standard input; messages are delimited by newlines (a read boundary is not a message boundary).' },
    knob: 'stdio-no-reassemble',
    fix: 'Buffer stdin until the newline before parsing.',
  },
  (v) => {
    const r = v.served('partial-line', 'request written in two chunks');
    return 'ok' in r ? pass('served') : r;
  },
);
