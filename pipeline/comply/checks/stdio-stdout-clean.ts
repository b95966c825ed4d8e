import { BOTH_ERAS, NOTHING_HEARD, STDIO_ONLY, defineCheck, fail, heardNothing, na, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { isFragment } from './stdio-framing.ts';
import { NOISE_MORE } from '../wire/stdio.ts';

export default defineCheck(
  {
    id: 'stdio-stdout-clean',
    title: 'Nothing but MCP messages on stdout (logs go to stderr)',
    category: 'transport',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: STDIO_ONLY,
    prerequisites: [],
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#stdio'),
      requirement: 'Server MUST keep stdout for MCP messages only: banners and logs go to stderr.',
    },
    knob: 'stdout-banner',
    fix: 'Send banners and logs to stderr; stdout carries only JSON-RPC lines.',
  },
  (v) => {
    if (heardNothing(v.ev)) return na(NOTHING_HEARD);
    const other = v.ev.noise.filter((l) => !isFragment(l) && !l.startsWith(NOISE_MORE));
    return other.length
      ? fail(`${other.length} non-protocol stdout line(s), first: ${JSON.stringify(other[0])}`)
      : pass('stdout carried only JSON-RPC');
  },
);
