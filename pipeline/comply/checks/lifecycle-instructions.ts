import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-instructions',
    title: 'instructions in the handshake result is absent or a string',
    category: 'lifecycle',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic/lifecycle#initialization'),
      requirement:
        'Server either omits instructions from its handshake result or sends it as a string; the type comes from the schema, no normative keyword (inferred).',
    },
    knob: 'instructions-object',
    fix: 'Send instructions as one plain string, or leave the field out.',
  },
  (v) => {
    const r = v.result('handshake')!;
    if (!('instructions' in r) || r.instructions === undefined) return pass('no instructions');
    if (typeof r.instructions !== 'string') return fail(`instructions is ${JSON.stringify(r.instructions).slice(0, 80)}, not a string`);
    return pass(`instructions: ${r.instructions.length} characters`);
  },
);
