import { BOTH_ERAS, STDIO_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { GIANT_BYTES } from '../gather/probes/transport.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'stdio-giant-line',
    title: `A ${GIANT_BYTES / 1048576} MiB request line is answered (result or error) without the server dying`,
    category: 'transport',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: STDIO_ONLY,
    probes: ['giant-line'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#stdio'),
      requirement:
        'Best practice: messages are delimited by newlines and the transport sets no size limit, so a server that cannot take a message should answer an error, not exit.',
    },
    knob: 'exit-on-giant-line',
    fix: 'Answer oversized messages with an error instead of exiting.',
  },
  (v) => {
    const e = v.x('giant-line');
    if (!e) return { status: 'not_evaluable', reason: 'no_population', detail: 'not sent' };
    if (e.error?.kind === 'died') return fail(`the server died on a ${GIANT_BYTES}-byte line: ${e.error.detail}`);
    if (v.reply('giant-line')) return pass(v.error('giant-line') ? `refused with ${v.error('giant-line')!.code}` : 'served');
    return fail(`no answer to a ${GIANT_BYTES}-byte line (${e.error?.detail ?? 'none'})`);
  },
);
