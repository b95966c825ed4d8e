import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, problems, specUrl } from '../judge/check.ts';
import { WIDE_ID } from '../gather/probes/lifecycle.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-id-match',
    title: 'Every response carries the id of the request it answers (numeric ids, including one past 2^31)',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['id-match'],
    spec: {
      url: specUrl(LEGACY, 'basic#responses'),
      requirement: 'Server MUST answer with the id of the request being answered, same value and same JSON type.',
    },
    knob: 'id-int32',
    fix: 'Echo the request id unchanged: keep numeric ids as the same number (no 32-bit narrowing, no string conversion).',
  },
  (v) => {
    const gate = v.unusable('id-match');
    if (gate) return gate;
    const e = v.x('id-match')!;
    if (!v.reply('id-match')) {
      // stdio matches answers on the id: a reply with another id lands among the unattributed messages
      const stray = v.ev.unattributed.find(
        (m) => m && typeof m === 'object' && ('result' in m || 'error' in m) && typeof (m as { id?: unknown }).id === 'number',
      );
      if (stray) return fail(`the request with id ${WIDE_ID} was answered with id ${JSON.stringify((stray as { id: unknown }).id)}`);
      return fail(`no answer to the request with id ${WIDE_ID}${e.error ? ` (${e.error.detail})` : ''}`);
    }
    const bad: string[] = [];
    let n = 0;
    for (const { ex, msg } of v.responses()) {
      if (typeof ex.request.id !== 'number') continue;
      // an error with id null is a rejection before the id was read (judged by the error checks); a missing id member still fails
      if (msg.id === null && 'error' in msg) continue;
      n++;
      if (msg.id !== ex.request.id)
        bad.push(`${v.requestMethod(ex) ?? ex.probe} sent with id ${ex.request.id}, answered with id ${JSON.stringify(msg.id)}`);
    }
    return bad.length ? problems(bad, '') : pass(`${n} numeric ids echoed (largest ${WIDE_ID})`);
  },
);
