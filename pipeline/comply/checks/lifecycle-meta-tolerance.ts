import { ANY_WIRE, BOTH_ERAS, defineCheck, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'lifecycle-meta-tolerance',
    title: 'An unknown vendor key in _meta is ignored',
    category: 'lifecycle',
    severity: 'SHOULD',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    probes: ['meta-vendor'],
    spec: {
      url: specUrl(LEGACY, 'basic/index#meta'),
      requirement:
        'Server SHOULD ignore a _meta key under a vendor prefix it does not know (com.example/…): only the modelcontextprotocol and mcp prefixes are reserved, the rest belong to the sender.',
    },
    knob: 'reject-vendor-meta',
    fix: 'Ignore _meta keys you do not know.',
  },
  (v) => {
    const r = v.served('meta-vendor', 'request with com.example.mcpgauge/probe in _meta');
    return 'ok' in r ? pass('served with a vendor _meta key') : r;
  },
);
