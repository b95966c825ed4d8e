import { ANY_WIRE, MODERN_ONLY, defineCheck, pass, specUrl } from '../judge/check.ts';
import { cachingVerdict } from '../judge/caching.ts';
import { MODERN } from '../types.ts';
import { METHOD_NOT_FOUND } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'resources-templates-caching',
    title: 'resources/templates/list carries ttlMs and cacheScope (when templates are served)',
    category: 'resources',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    capability: 'resources',
    prerequisites: ['lifecycle-handshake', 'resources-templates'],
    probes: ['templates-list'],
    spec: {
      url: specUrl(MODERN, 'server/utilities/caching#cacheable-results'),
      requirement: 'Server MUST put ttlMs and cacheScope on a complete resources/templates/list result (a cacheable request).',
    },
    knob: 'no-templates-caching',
    fix: 'Add ttlMs and cacheScope to the resources/templates/list result.',
  },
  (v) => {
    if (v.error('templates-list')?.code === METHOD_NOT_FOUND) return pass('templates not implemented (-32601): nothing to cache');
    return cachingVerdict(v, 'templates-list', 'resources/templates/list');
  },
);
