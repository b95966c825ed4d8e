import { ANY_WIRE, MODERN_ONLY, defineCheck, isObj, problems, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'error-retired-codes',
    title: 'No retired error codes (-32002, -32042) are emitted',
    category: 'errors',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['resources-read-missing'],
    spec: {
      url: specUrl(MODERN, 'server/resources#error-handling'),
      requirement:
        'Server MUST NOT answer a missing resource with the retired -32002 (the code is now -32602), and does not send the reserved -32042 in this revision.',
    },
    knob: 'resource-not-found-32002',
    fix: 'Use -32602 for missing resources; never emit -32002 or -32042.',
  },
  (v) => {
    const bad: string[] = [];
    for (const { ex, msg } of v.responses()) {
      const c = isObj(msg.error) ? msg.error.code : undefined;
      if (c === -32002 || c === -32042) bad.push(`${v.requestMethod(ex) ?? ex.probe} answered ${c}`);
    }
    return problems(bad, 'no retired codes');
  },
);
