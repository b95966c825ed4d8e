import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { PRM_PROBES, authContext, foundPrm } from '../judge/security.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-auth-server-https',
    title: 'Every authorization server the metadata names is an https URL',
    category: 'security',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'security-oauth-metadata'],
    probes: [...PRM_PROBES],
    spec: {
      url: specUrl(LEGACY, 'basic/authorization#communication-security'),
      requirement: 'Server MUST point clients only at authorization servers reached over https (OAuth 2.1 communication security).',
    },
    knob: 'prm-http-issuer',
    fix: 'Name the authorization server by its https issuer URL (tokens and codes must never travel in clear).',
  },
  (v) => {
    const ctx = authContext(v);
    if (ctx) return ctx;
    const doc = foundPrm(v)?.doc;
    const as = Array.isArray(doc?.authorization_servers) ? (doc.authorization_servers as unknown[]) : [];
    if (!as.length) return { status: 'not_applicable', reason: 'no_population', detail: 'no authorization server named' };
    const plain = as.filter((u) => typeof u !== 'string' || !/^https:\/\//i.test(u));
    return plain.length
      ? fail(
          `not https: ${plain
            .map((u) => JSON.stringify(u))
            .join(', ')
            .slice(0, 160)}`,
        )
      : pass(`${as.length} authorization server(s), all https`);
  },
);
