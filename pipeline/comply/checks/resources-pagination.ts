import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../check.ts';
import { paginationVerdict } from '../pagination.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'resources-pagination',
    title: 'resources/list nextCursor, when present, is a string and fetches the next page',
    category: 'resources',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'resources',
    prerequisites: ['lifecycle-handshake', 'resources-list'],
    probes: ['resources-list', 'resources-list-page2'],
    spec: { url: specUrl(LEGACY, 'server/utilities/pagination#response-format'), requirement: 'PaginatedResult (schema): nextCursor?: Cursor (a string); the client passes it back as cursor to fetch the next page of resources/list (no normative keyword; schema type required).' },
    knob: 'resources-bad-next-cursor',
    fix: 'Send nextCursor as a string and accept it back as cursor on resources/list.',
  },
  (v) => paginationVerdict(v, 'resources-list', 'resources-list-page2', 'resources', 'resources/list'),
);
