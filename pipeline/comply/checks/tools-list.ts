import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'tools-list',
    title: 'tools/list returns a tools array of objects',
    category: 'tools',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    probes: ['tools-list'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#listing-tools'),
      requirement: 'Server answers tools/list with a tools array of tool objects (a required field; nextCursor may be added).',
    },
    knob: 'tools-list-not-array',
    fix: 'Return {"tools": [...]} from tools/list.',
  },
  (v) => {
    const r = v.served('tools-list', 'tools/list');
    if (!('ok' in r)) return r;
    const t = r.ok.tools;
    if (!Array.isArray(t)) return fail(`tools is ${JSON.stringify(t)?.slice(0, 60)}, not an array`);
    if (!t.every(isObj)) return fail('tools has non-object entries');
    return pass(`${t.length} tools`);
  },
);
