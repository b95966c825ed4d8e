import { BOTH_ERAS, HTTP_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { loopbackTarget } from '../judge/security.ts';
import { LEGACY } from '../types.ts';

/** what the plain-http request carried (said in every verdict drawn from it) */
const SENT = 'the opening request over plain http to the same host and port, sent with no credential and no user header';

export default defineCheck(
  {
    id: 'security-tls-required',
    title: 'The endpoint is served over TLS only: plain http is refused or redirected to https',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: ['tls-plain'],
    spec: {
      url: specUrl(LEGACY, 'basic/authorization#communication-security'),
      requirement:
        'Best practice: server that takes credentials serves them over TLS only, refusing or redirecting plain http (OAuth 2.1 communication security, which MCP says implementations MUST follow).',
    },
    knob: 'tls-plain-too',
    fix: 'Serve the MCP endpoint over https only: close the plain-http listener, or answer it with a redirect to the https URL (never serve it).',
  },
  (v) => {
    let scheme: string;
    try {
      scheme = new URL(v.ev.target).protocol;
    } catch {
      return { status: 'not_applicable', reason: 'transport', detail: 'the target is not a URL' };
    }
    if (scheme === 'http:') {
      // our rule (the reference fails every http target): TLS protects traffic between hosts
      if (loopbackTarget(v))
        return {
          status: 'not_applicable',
          reason: 'transport',
          detail: 'a plain http target on a loopback host: the traffic never leaves this machine, and TLS protects traffic between hosts',
        };
      return fail('the target itself is plain http on a non-loopback host: credentials and tool data cross the network in clear');
    }
    const e = v.x('tls-plain');
    if (!e) return { status: 'not_evaluable', reason: 'no_population', detail: 'the plain-http request was not sent' };
    const st = e.response?.status;
    if (st === undefined) {
      const how = e.error?.kind === 'timeout' ? 'not answered' : 'refused';
      return pass(`plain http ${how} (${e.error?.kind ?? 'no answer'}: ${e.error?.detail ?? 'nothing came back'}); probe: ${SENT}`);
    }
    if (st >= 300 && st < 400) {
      const loc = e.response?.headers?.location ?? '';
      const many = loc.includes(',');
      return /^https:\/\//i.test(loc) && !many
        ? pass(`plain http redirected (HTTP ${st}) to ${loc.slice(0, 120)}`)
        : fail(`plain http answered HTTP ${st} with Location ${JSON.stringify(loc.slice(0, 120))}, not a single https URL`);
    }
    if (v.reply('tls-plain') || (st >= 200 && st < 300))
      return fail(
        `plain http served the MCP endpoint (HTTP ${st}${v.result('tls-plain') ? ', a result' : v.error('tls-plain') ? `, error ${v.error('tls-plain')!.code}` : ''}): every request, its credential included, can be read on the way; probe: ${SENT}`,
      );
    if (st === 401 || st === 403)
      return fail(
        `plain http answered HTTP ${st}: the endpoint listens in clear and asks for a credential, which a client would send unencrypted`,
      );
    return pass(`plain http answered HTTP ${st} without serving MCP (no JSON-RPC message, no redirect)`);
  },
);
