import { ANY_WIRE, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { cachingVerdict } from '../judge/caching.ts';
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
    spec: {
      url: specUrl(MODERN, 'server/utilities/caching#cacheable-results'),
      requirement: 'Server MUST put ttlMs and cacheScope on a complete server/discover result (discover is one of the cacheable requests).',
    },
    knob: 'no-caching',
    fix: 'Add ttlMs (integer >= 0) and cacheScope ("public" | "private") to the discover result.',
  },
  (v) => cachingVerdict(v, 'handshake', 'server/discover'),
);
