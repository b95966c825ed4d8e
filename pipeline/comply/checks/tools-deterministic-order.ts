import { ANY_WIRE, MODERN_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'tools-deterministic-order',
    title: 'tools/list returns tools in the same order every time',
    category: 'tools',
    severity: 'SHOULD',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list', 'tools-list-2', 'tools-list-3'],
    spec: {
      url: specUrl(MODERN, 'server/tools#listing-tools'),
      requirement: 'Server SHOULD list its tools in the same order on every tools/list.',
    },
    knob: 'unstable-tool-order',
    fix: 'Sort or otherwise fix the order of tools/list.',
  },
  (v) => {
    const orders = ['tools-list', 'tools-list-2', 'tools-list-3'].map((p) =>
      v
        .list(p, 'tools')
        .map((t) => String(t.name))
        .join('\u0000'),
    );
    if (orders.some((o) => !o))
      return { status: 'not_evaluable', reason: 'no_population', detail: 'a tools/list call returned nothing to compare' };
    const sets = orders.map((o) => o.split('\u0000').sort().join('\u0000'));
    if (new Set(sets).size > 1)
      return {
        status: 'not_evaluable',
        reason: 'no_population',
        detail: 'the tool set itself changed between calls (see security-tool-list-stable)',
      };
    return new Set(orders).size === 1 ? pass('same order in 3 calls') : fail('the same tools came back in different orders');
  },
);
