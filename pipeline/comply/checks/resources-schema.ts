import { ANY_WIRE, BOTH_ERAS, defineCheck, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

function absoluteUri(u: unknown): boolean {
  if (typeof u !== 'string') return false;
  try {
    return Boolean(new URL(u).protocol);
  } catch {
    return false;
  }
}

export default defineCheck(
  {
    id: 'resources-schema',
    title: 'Every resource has an absolute uri and a string name',
    category: 'schema',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'resources',
    prerequisites: ['lifecycle-handshake', 'resources-list'],
    probes: ['resources-list'],
    spec: {
      url: specUrl(LEGACY, 'server/resources#resource'),
      requirement: 'Server gives every resource a uri (an absolute URI that identifies it) and a name; both are required.',
    },
    knob: 'resource-no-name',
    fix: 'Give every resource a URI and a name.',
  },
  (v) => {
    const l = v.list('resources-list', 'resources');
    const bad = l
      .filter((r) => !absoluteUri(r.uri) || typeof r.name !== 'string')
      .map((r) => `resource ${JSON.stringify(r.uri)} name ${JSON.stringify(r.name)}`);
    return problems(bad, `${l.length} resources well-formed`);
  },
);
