import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'resources-read',
    title: 'resources/read of a listed resource returns contents with uri and text or blob',
    category: 'resources',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'resources',
    prerequisites: ['lifecycle-handshake', 'resources-list'],
    probes: ['resources-read'],
    spec: {
      url: specUrl(LEGACY, 'server/resources#reading-resources'),
      requirement: 'Server answers resources/read with contents (required), each item giving its uri (required) and either text or blob.',
    },
    knob: 'read-no-uri',
    fix: 'Return contents items {uri, mimeType?, text | blob}.',
  },
  (v) => {
    if (!v.x('resources-read'))
      return { status: 'not_evaluable', reason: 'no_population', detail: 'resources/list listed nothing to read' };
    const r = v.served('resources-read', 'resources/read');
    if (!('ok' in r)) return r;
    if (r.ok.resultType === 'input_required') return pass('input_required result');
    const c = r.ok.contents;
    if (!Array.isArray(c)) return fail('no contents array');
    const bad = c.filter((x) => !isObj(x) || typeof x.uri !== 'string' || (typeof x.text !== 'string' && typeof x.blob !== 'string'));
    return bad.length ? fail(`${bad.length} contents item(s) lack uri or text/blob`) : pass(`${c.length} contents items`);
  },
);
