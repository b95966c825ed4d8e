import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { PRM_PROBES, authContext, foundPrm } from '../judge/security.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'security-oauth-metadata',
    title: 'Protected Resource Metadata (RFC 9728) is served with resource and authorization_servers',
    category: 'security',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['auth-none', ...PRM_PROBES],
    spec: {
      url: specUrl(LEGACY, 'basic/authorization#authorization-server-location'),
      requirement:
        'Server that uses authorization MUST publish a Protected Resource Metadata document (RFC 9728) naming at least one authorization server in authorization_servers.',
    },
    knob: 'no-prm',
    fix: 'Serve {"resource": "<this endpoint>", "authorization_servers": ["https://issuer"]} at /.well-known/oauth-protected-resource[/path] and name it in the 401 challenge.',
  },
  (v) => {
    const ctx = authContext(v);
    if (ctx) return ctx;
    const tried = PRM_PROBES.map((p) => v.x(p)).filter((e) => e !== undefined);
    if (!tried.length) return { status: 'not_evaluable', reason: 'no_population', detail: 'no metadata request was sent' };
    const found = foundPrm(v);
    if (!found)
      return fail(
        `no metadata document: ${tried.map((e) => `${e!.request.http?.url ?? '?'} -> ${e!.response?.status ?? e!.error?.detail ?? '-'}`).join(', ')}`,
      );
    const { ex: hit, doc } = found;
    const bad: string[] = [];
    if (typeof doc.resource !== 'string' || !doc.resource) bad.push('no resource');
    const as = doc.authorization_servers;
    if (!Array.isArray(as) || !as.length || !as.every((x) => typeof x === 'string' && /^https?:\/\//.test(x)))
      bad.push(`authorization_servers ${JSON.stringify(as)?.slice(0, 80)} is not a non-empty list of URLs`);
    return bad.length
      ? fail(`metadata at ${hit.request.http?.url}: ${bad.join('; ')}`)
      : pass(`metadata at ${hit.request.http?.url} names ${(as as string[]).length} authorization server(s)`);
  },
);
