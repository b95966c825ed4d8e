import { ANY_WIRE, BOTH_ERAS, defineCheck, pass, specUrl } from '../check.ts';
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
    spec: { url: specUrl(LEGACY, 'basic/index#meta'), requirement: 'The _meta property is reserved by MCP to allow clients and servers to attach additional metadata to their interactions; only prefixes whose second label is modelcontextprotocol or mcp are reserved, so a vendor-prefixed key (com.example/…) is the sender\'s own and SHOULD be ignored by a receiver that does not know it.' },
    knob: 'reject-vendor-meta',
    fix: 'Ignore _meta keys you do not know.',
  },
  (v) => {
    const r = v.served('meta-vendor', 'request with com.example.mcpgauge/probe in _meta');
    return 'ok' in r ? pass('served with a vendor _meta key') : r;
  },
);
