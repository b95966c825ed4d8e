import { HTTP_ONLY, LEGACY_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { BOGUS_VERSION } from '../gather/probes/transport.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'transport-version-header-legacy',
    title: 'An unsupported MCP-Protocol-Version header is answered 400',
    category: 'transport',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'lifecycle-handshake'],
    probes: ['version-header-bogus', 'twin'],
    spec: {
      url: specUrl(LEGACY, 'basic/transports#protocol-version-header'),
      requirement: 'Server MUST answer 400 to a request whose MCP-Protocol-Version header is malformed or a version it does not support.',
    },
    knob: 'version-header-any',
    fix: 'Validate MCP-Protocol-Version on every request after initialize and answer an unsupported value with 400.',
  },
  (v) => {
    const gate = v.unusable('version-header-bogus');
    if (gate) return gate;
    if (!v.twinServed('twin'))
      return {
        status: 'not_evaluable',
        reason: 'twin_failed',
        detail: 'the same request with the negotiated version was not served either',
      };
    const st = v.status('version-header-bogus');
    if (st === 400) return pass(`HTTP 400 for MCP-Protocol-Version: ${BOGUS_VERSION}`);
    if (v.result('version-header-bogus')) return fail(`served under MCP-Protocol-Version: ${BOGUS_VERSION} (HTTP ${st})`);
    return fail(`HTTP ${st ?? v.x('version-header-bogus')?.error?.detail} for MCP-Protocol-Version: ${BOGUS_VERSION}, expected 400`);
  },
);
