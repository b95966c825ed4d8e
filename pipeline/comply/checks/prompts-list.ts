import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'prompts-list',
    title: 'prompts/list returns a prompts array of objects',
    category: 'prompts',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'prompts',
    probes: ['prompts-list'],
    spec: {
      url: specUrl(LEGACY, 'server/prompts#listing-prompts'),
      requirement: 'Server answers prompts/list with a prompts array of prompt objects (a required field).',
    },
    knob: 'prompts-list-not-array',
    fix: 'Return {"prompts": [...]} from prompts/list.',
  },
  (v) => {
    const r = v.served('prompts-list', 'prompts/list');
    if (!('ok' in r)) return r;
    const l = r.ok.prompts;
    if (!Array.isArray(l) || !l.every(isObj)) return fail(`prompts is ${JSON.stringify(l)?.slice(0, 60)}, not an array of objects`);
    return pass(`${l.length} prompts`);
  },
);
