import { ANY_WIRE, BOTH_ERAS, defineCheck, specUrl } from '../judge/check.ts';
import { paginationVerdict } from '../judge/pagination.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'prompts-pagination',
    title: 'prompts/list nextCursor, when present, is a string and fetches the next page',
    category: 'prompts',
    severity: 'MUST',
    basis: 'inferred',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'prompts',
    prerequisites: ['lifecycle-handshake', 'prompts-list'],
    probes: ['prompts-list', 'prompts-list-page2'],
    spec: {
      url: specUrl(LEGACY, 'server/utilities/pagination#response-format'),
      requirement:
        "Server that pages prompts/list gives nextCursor as a string, which fetches the next page when sent back as cursor (no normative keyword; the type is the schema's).",
    },
    knob: 'prompts-bad-next-cursor',
    fix: 'Send nextCursor as a string and accept it back as cursor on prompts/list.',
  },
  (v) => paginationVerdict(v, 'prompts-list', 'prompts-list-page2', 'prompts', 'prompts/list'),
);
