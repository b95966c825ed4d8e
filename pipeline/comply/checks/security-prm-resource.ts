import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { PRM_PROBES, authContext, foundPrm } from '../judge/security.ts';
import { LEGACY } from '../types.ts';

const canon = (u: string) => {
  const p = new URL(u);
  return `${p.protocol}//${p.host.toLowerCase()}${p.pathname.replace(/\/+$/, '')}`;
};

export default defineCheck(
  {
    id: 'security-prm-resource',
    title: "The metadata document's resource identifies this endpoint (RFC 9728 §3.3)",
    category: 'security',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post', 'security-oauth-metadata'],
    probes: [...PRM_PROBES],
    spec: {
      url: specUrl(LEGACY, 'basic/authorization#canonical-server-uri'),
      requirement:
        'Server MUST name itself in its metadata document: resource is exactly the endpoint URL the well-known path was built from, or clients must throw the document away (RFC 9728 §3.3).',
    },
    knob: 'prm-wrong-resource',
    fix: 'Set resource to the canonical URI of this MCP endpoint (scheme, host, port and path).',
  },
  (v) => {
    const ctx = authContext(v);
    if (ctx) return ctx;
    const hit = foundPrm(v);
    const res = hit?.doc.resource;
    if (typeof res !== 'string')
      return { status: 'not_applicable', reason: 'no_population', detail: 'no metadata document with a resource to compare' };
    let mine: string;
    let theirs: string;
    try {
      mine = canon(v.ev.target);
      theirs = canon(res);
    } catch {
      return fail(`resource ${JSON.stringify(res).slice(0, 80)} is not a URL`);
    }
    // the root well-known document describes the origin; the path-inserted one the endpoint
    const rootDoc = hit!.ex.probe === 'prm-root';
    const ok = theirs === mine || (rootDoc && theirs === canon(new URL(v.ev.target).origin));
    return ok ? pass(`resource ${res}`) : fail(`resource ${res} does not identify ${v.ev.target}`);
  },
);
