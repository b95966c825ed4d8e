import { BOTH_ERAS, ANY_WIRE, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-handshake',
    title: 'The opening request is served: server/discover (2026-07-28) or initialize (2025-11-25)',
    category: 'lifecycle',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    prerequisites: ['transport-post', 'stdio-framing'],
    probes: ['handshake'],
    spec: {
      url: specUrl(LEGACY, 'basic/lifecycle#initialization'),
      requirement:
        'Server MUST serve the opening request: server/discover in 2026-07-28, initialize (which comes before anything else) in 2025-11-25.',
    },
    knob: 'no-handshake',
    fix: 'Answer server/discover with supportedVersions and capabilities (modern) or initialize with protocolVersion, capabilities and serverInfo (legacy).',
  },
  (v) => {
    const r = v.served('handshake', v.modern ? 'server/discover' : 'initialize');
    if (!('ok' in r)) return r;
    if (v.modern) {
      if (!Array.isArray(r.ok.supportedVersions)) return fail('DiscoverResult has no supportedVersions array');
      if (!isObj(r.ok.capabilities)) return fail('DiscoverResult has no capabilities object');
      return pass(`discover served: supportedVersions ${JSON.stringify(r.ok.supportedVersions)}`);
    }
    if (typeof r.ok.protocolVersion !== 'string') return fail('InitializeResult has no protocolVersion string');
    if (!isObj(r.ok.capabilities)) return fail('InitializeResult has no capabilities object');
    return pass(`initialize served: protocolVersion ${r.ok.protocolVersion}`);
  },
);
