import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'resources-list',
    title: 'resources/list returns a resources array of objects',
    category: 'resources',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'resources',
    probes: ['resources-list'],
    spec: {
      url: specUrl(LEGACY, 'server/resources#listing-resources'),
      requirement: 'Server answers resources/list with a resources array of resource objects (a required field).',
    },
    knob: 'resources-list-not-array',
    fix: 'Return {"resources": [...]} from resources/list.',
  },
  (v) => {
    const r = v.served('resources-list', 'resources/list');
    if (!('ok' in r)) return r;
    const l = r.ok.resources;
    if (!Array.isArray(l) || !l.every(isObj)) return fail(`resources is ${JSON.stringify(l)?.slice(0, 60)}, not an array of objects`);
    return pass(`${l.length} resources`);
  },
);
