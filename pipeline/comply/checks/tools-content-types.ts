import { ANY_WIRE, BOTH_ERAS, defineCheck, isObj, pass, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

const NEEDS: Record<string, string[]> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
  resource: ['resource'],
};

export default defineCheck(
  {
    id: 'tools-content-types',
    title: 'Every content block has a known type and the fields that type requires',
    category: 'tools',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-call'],
    probes: ['tools-call', 'tools-call-structured'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#tool-result'),
      requirement:
        'Server fills tool results only with known content types (text, image, audio, resource_link, resource), each carrying the fields its type has as required.',
    },
    knob: 'unknown-content-type',
    fix: 'Use only text, image, audio, resource_link and resource blocks, with their required fields.',
  },
  (v) => {
    const bad: string[] = [];
    let n = 0;
    for (const p of ['tools-call', 'tools-call-structured']) {
      const content = v.result(p)?.content;
      if (!Array.isArray(content)) continue;
      for (const b of content) {
        n++;
        if (!isObj(b) || typeof b.type !== 'string' || !(b.type in NEEDS)) {
          bad.push(`unknown content type ${JSON.stringify(isObj(b) ? b.type : b)}`);
          continue;
        }
        for (const f of NEEDS[b.type]) if (!(f in b)) bad.push(`${b.type} block without ${f}`);
      }
    }
    return n ? problems(bad, `${n} content blocks valid`) : pass('no content blocks to inspect');
  },
);
