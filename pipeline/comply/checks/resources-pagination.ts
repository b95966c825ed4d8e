import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../judge/check.ts';
import { paginationVerdict } from '../judge/pagination.ts';
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
    spec: {
      url: specUrl(LEGACY, 'server/utilities/pagination#response-format'),
      requirement:
        "Server that pages resources/list gives nextCursor as a string, which fetches the next page when sent back as cursor (no normative keyword; the type is the schema's).",
    },
    knob: 'resources-bad-next-cursor',
    fix: 'Send nextCursor as a string and accept it back as cursor on resources/list.',
  },
  (v) => paginationVerdict(v, 'resources-list', 'resources-list-page2', 'resources', 'resources/list'),
);
