import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { STRING_ID } from '../gather/probes/lifecycle.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-string-id',
    title: 'A string request id is echoed back unchanged',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['string-id'],
    spec: {
      url: specUrl(LEGACY, 'basic#responses'),
      requirement: 'Server MUST answer a request with a string id using that same string, unchanged (ids are strings or integers).',
    },
    knob: 'string-id-number',
    fix: 'Echo the request id with its type: a string id stays a string.',
  },
  (v) => {
    const gate = v.unusable('string-id');
    if (gate) return gate;
    const reply = v.reply('string-id');
    if (!reply)
      return fail(`no response carried the string id ${JSON.stringify(STRING_ID)} (${v.x('string-id')?.error?.detail ?? 'none'})`);
    return reply.id === STRING_ID ? pass('string id echoed') : fail(`id came back as ${JSON.stringify(reply.id)}`);
  },
);
