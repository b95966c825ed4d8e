import { ANY_WIRE, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { cachingVerdict } from '../judge/caching.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'resources-list-caching',
    title: 'resources/list carries ttlMs and cacheScope',
    category: 'resources',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    capability: 'resources',
    prerequisites: ['lifecycle-handshake', 'resources-list'],
    probes: ['resources-list'],
    spec: {
      url: specUrl(MODERN, 'server/utilities/caching#cacheable-results'),
      requirement: 'Server MUST put ttlMs and cacheScope on a complete resources/list result (a cacheable request).',
    },
    knob: 'no-caching',
    fix: 'Add ttlMs and cacheScope to the resources/list result.',
  },
  (v) => cachingVerdict(v, 'resources-list', 'resources/list'),
);
