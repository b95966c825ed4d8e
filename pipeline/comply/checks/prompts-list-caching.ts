import { ANY_WIRE, MODERN_ONLY, defineCheck, specUrl } from '../judge/check.ts';
import { cachingVerdict } from '../judge/caching.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'prompts-list-caching',
    title: 'prompts/list carries ttlMs and cacheScope',
    category: 'prompts',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    capability: 'prompts',
    prerequisites: ['lifecycle-handshake', 'prompts-list'],
    probes: ['prompts-list'],
    spec: {
      url: specUrl(MODERN, 'server/utilities/caching#cacheable-results'),
      requirement: 'Server MUST put ttlMs and cacheScope on a complete prompts/list result (a cacheable request).',
    },
    knob: 'no-caching',
    fix: 'Add ttlMs and cacheScope to the prompts/list result.',
  },
  (v) => cachingVerdict(v, 'prompts-list', 'prompts/list'),
);
