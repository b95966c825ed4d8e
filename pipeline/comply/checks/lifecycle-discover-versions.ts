import { ANY_WIRE, DATE, MODERN_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-discover-versions',
    title: 'supportedVersions lists dated revisions including 2026-07-28',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: MODERN_ONLY,
    transports: ANY_WIRE,
    probes: ['handshake'],
    spec: {
      url: specUrl(MODERN, 'server/discover#discoverresult'),
      requirement:
        'Server lists in supportedVersions (a required field) every protocol version it speaks; the client picks its request version from that list.',
    },
    knob: 'discover-bad-versions',
    fix: 'List every supported revision as YYYY-MM-DD in supportedVersions.',
  },
  (v) => {
    const sv = v.result('handshake')?.supportedVersions as unknown[];
    if (!Array.isArray(sv) || sv.length === 0) return fail('supportedVersions is empty');
    const bad = sv.filter((x) => typeof x !== 'string' || !DATE.test(x));
    if (bad.length) return fail(`supportedVersions has entries that are not YYYY-MM-DD: ${JSON.stringify(bad)}`);
    if (!sv.includes(MODERN))
      return fail(`supportedVersions ${JSON.stringify(sv)} lacks ${MODERN} although the server answered a ${MODERN} discover`);
    return pass(`supportedVersions ${JSON.stringify(sv)}`);
  },
);
