import { ANY_WIRE, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { cachingVerdict } from '../judge/caching.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'tools-list-caching',
    title: 'tools/list carries ttlMs and cacheScope',
    category: 'tools',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list'],
    spec: {
      url: specUrl(MODERN, 'server/utilities/caching#cacheable-results'),
      requirement: 'Server MUST put ttlMs and cacheScope on a complete tools/list result (a cacheable request).',
    },
    knob: 'no-caching',
    fix: 'Add ttlMs and cacheScope to the tools/list result.',
  },
  (v) => cachingVerdict(v, 'tools-list', 'tools/list'),
);
