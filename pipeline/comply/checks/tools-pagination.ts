import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'tools-pagination',
    title: 'nextCursor, when present, is a string and fetches the next page',
    category: 'tools',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list', 'tools-list-page2'],
    spec: { url: specUrl(LEGACY, 'server/utilities/pagination#response-format'), sentence: 'PaginatedResult (schema): nextCursor, when present, is a string (Cursor) that the client passes back as cursor to fetch the next page (no normative keyword; schema type required).' },
    knob: 'bad-next-cursor',
    fix: 'Send nextCursor as a string and accept it back as cursor.',
  },
  (v) => {
    const r = v.result('tools-list')!;
    if (!('nextCursor' in r) || r.nextCursor === undefined) return pass('single page (no nextCursor)');
    if (typeof r.nextCursor !== 'string') return fail(`nextCursor is ${JSON.stringify(r.nextCursor)}, not a string`);
    const p2 = v.served('tools-list-page2', 'tools/list with the returned cursor');
    if (!('ok' in p2)) return p2;
    return Array.isArray(p2.ok.tools) ? pass(`page 2: ${p2.ok.tools.length} tools`) : fail('page 2 has no tools array');
  },
);
