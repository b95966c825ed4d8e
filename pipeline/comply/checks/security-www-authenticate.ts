import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { authContext } from '../judge/security.ts';
import { bearerChallenge } from '../gather/probes/security-kit.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-www-authenticate',
    title: 'The 401 carries a WWW-Authenticate Bearer challenge (with resource_metadata)',
    category: 'security',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'security-auth-required'],
    probes: ['auth-none', 'prm'],
    spec: {
      url: specUrl(LEGACY, 'basic/authorization#protected-resource-metadata-discovery-requirements'),
      requirement:
        'Server MUST send a WWW-Authenticate Bearer challenge with every 401 (RFC 9110), and tells clients where its metadata is, here through resource_metadata in that header.',
    },
    knob: 'no-www-authenticate',
    fix: 'Send WWW-Authenticate: Bearer resource_metadata="https://…/.well-known/oauth-protected-resource/…" with every 401.',
  },
  (v) => {
    const ctx = authContext(v);
    if (ctx) return ctx;
    if (v.status('auth-none') !== 401)
      return {
        status: 'not_applicable',
        reason: 'no_population',
        detail: `the credential-less request drew HTTP ${v.status('auth-none')}, not 401`,
      };
    const h = v.header('auth-none', 'www-authenticate');
    if (!h) return fail('the 401 has no WWW-Authenticate header');
    const ch = bearerChallenge(h);
    if (!ch) return fail(`WWW-Authenticate is not a Bearer challenge: ${h.slice(0, 80)}`);
    if (!ch.resource_metadata)
      return pass('Bearer challenge without resource_metadata', [
        'no resource_metadata in the challenge: clients fall back to the well-known URI (allowed, but the header is the first discovery step)',
      ]);
    return pass(`Bearer challenge naming ${ch.resource_metadata}`);
  },
);
