import { ANY_WIRE, MODERN_ONLY, defineCheck, specUrl } from '../check.ts';
import { cachingVerdict } from '../caching.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-discover-caching',
    title: 'DiscoverResult carries ttlMs and cacheScope',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: { url: specUrl(MODERN, 'server/utilities/caching#cacheable-results'), requirement: 'Servers MUST include ttlMs and cacheScope on complete results of cacheable requests (server/discover, tools/list, prompts/list, resources/list, resources/templates/list, resources/read).' },
    knob: 'no-caching',
    fix: 'Add ttlMs (integer >= 0) and cacheScope ("public" | "private") to the discover result.',
  },
  (v) => cachingVerdict(v, 'handshake', 'server/discover'),
);
