import { HTTP_ONLY, MODERN_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { MODERN } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-session-ignored',
    title: 'An Mcp-Session-Id header is ignored, and none is minted',
    category: 'transport',
    severity: 'SHOULD',
    revisions: MODERN_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'lifecycle-handshake'],
    probes: ['session-fabricated', 'handshake'],
    spec: {
      url: specUrl(MODERN, 'basic/transports/streamable-http#earlier-streamable-http-revisions'),
      requirement:
        'Server on 2026-07-28 ignores an Mcp-Session-Id header it gets and never issues or echoes one (no normative keyword; graded SHOULD).',
    },
    knob: 'mint-session',
    fix: 'Do not send Mcp-Session-Id on 2026-07-28 responses, and serve requests whatever session header they carry.',
  },
  (v) => {
    const gate = v.unusable('session-fabricated');
    if (gate) return gate;
    for (const p of ['handshake', 'session-fabricated']) {
      const sid = v.header(p, 'mcp-session-id');
      if (sid) return fail(`${p} answered with Mcp-Session-Id ${JSON.stringify(sid)}`);
    }
    if (!v.result('session-fabricated')) return fail(`a fabricated session id was not ignored (HTTP ${v.status('session-fabricated')})`);
    return pass('served; no session id minted');
  },
);
