import { ANY_WIRE, LEGACY_ONLY, defineCheck, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'lifecycle-set-level-invalid',
    title: 'logging/setLevel with an unknown level is refused (-32602)',
    category: 'lifecycle',
    severity: 'SHOULD',
    revisions: LEGACY_ONLY,
    transports: ANY_WIRE,
    capability: 'logging',
    probes: ['set-level-bad', 'set-level'],
    spec: {
      url: specUrl(LEGACY, 'server/utilities/logging#error-handling'),
      requirement: 'Server SHOULD refuse logging/setLevel with a level it does not know with error -32602 (Invalid params).',
    },
    knob: 'setlevel-any-level',
    fix: 'Validate the level against the eight RFC 5424 names and answer -32602 for anything else.',
  },
  (v) => {
    const r = v.rejected('set-level-bad', 'setLevel with an unknown level', { twin: 'set-level' });
    if (r.status !== 'pass') return r;
    const code = v.error('set-level-bad')?.code;
    // refusing is what matters; the code is a SHOULD on top (the SDK v2 answers its validation error as -32603)
    return code === INVALID_PARAMS ? r : pass(r.detail, [`error ${code}, -32602 (Invalid params) expected`]);
  },
);
