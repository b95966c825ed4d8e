import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../judge/check.ts';
import { paginationVerdict } from '../judge/pagination.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'tools-pagination',
    title: 'nextCursor, when present, is a string and fetches the next page',
    category: 'tools',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list', 'tools-list-page2'],
    spec: {
      url: specUrl(LEGACY, 'server/utilities/pagination#response-format'),
      requirement:
        "Server that pages tools/list gives nextCursor as a string, which fetches the next page when sent back as cursor (no normative keyword; the type is the schema's).",
    },
    knob: 'bad-next-cursor',
    fix: 'Send nextCursor as a string and accept it back as cursor.',
  },
  (v) => paginationVerdict(v, 'tools-list', 'tools-list-page2', 'tools', 'tools/list'),
);
