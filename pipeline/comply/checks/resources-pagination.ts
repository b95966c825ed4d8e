import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'resources-pagination',
    title: 'resources/list nextCursor, when present, is a string and fetches the next page',
    category: 'resources',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'resources',
    prerequisites: ['lifecycle-handshake', 'resources-list'],
    probes: ['resources-list', 'resources-list-page2'],
    spec: { url: specUrl(LEGACY, 'server/utilities/pagination#response-format'), sentence: 'PaginatedResult (schema): nextCursor?: Cursor (a string); the client passes it back as cursor to fetch the next page of resources/list (no normative keyword; schema type required).' },
    knob: 'resources-bad-next-cursor',
    fix: 'Send nextCursor as a string and accept it back as cursor on resources/list.',
  },
  (v) => {
    const r = v.result('resources-list')!;
    if (!('nextCursor' in r) || r.nextCursor === undefined) return pass('single page (no nextCursor)');
    if (typeof r.nextCursor !== 'string') return fail(`nextCursor is ${JSON.stringify(r.nextCursor)}, not a string`);
    const p2 = v.served('resources-list-page2', 'resources/list with the returned cursor');
    if (!('ok' in p2)) return p2;
    return Array.isArray(p2.ok.resources) ? pass(`page 2: ${p2.ok.resources.length} resources`) : fail('page 2 has no resources array');
  },
);
