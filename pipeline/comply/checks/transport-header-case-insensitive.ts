import { HTTP_ONLY, MODERN_ONLY, defineCheck, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-header-case-insensitive',
    title: 'Standard headers are found whatever the case of their names',
    category: 'transport',
    severity: 'SHOULD',
    revisions: MODERN_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'lifecycle-handshake'],
    probes: ['header-lowercase'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#case-sensitivity'),
      requirement:
        'Server finds the standard headers whatever the case of their names ("mcp-method" is Mcp-Method), while their values keep their case (no normative keyword; HTTP names are case-insensitive, so missing them refuses conformant clients; graded SHOULD).',
    },
    knob: 'headers-case-sensitive',
    fix: 'Look standard headers up case-insensitively (most HTTP stacks already lowercase names: read them from there, not from the raw header list).',
  },
  (v) => {
    const r = v.served('header-lowercase', 'a conformant request with its standard headers spelled in lowercase');
    return 'ok' in r ? pass('served with lowercase header names') : r;
  },
);
