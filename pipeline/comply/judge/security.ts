/**
 * Shared rules of the security checks: the authorization context every auth check starts with
 * (authorization is OPTIONAL in MCP: a server that serves without credentials, probed without
 * --auth, is not_applicable, never failed), refusal verdicts, the metadata document a run found.
 * The payloads and probe-side readers are gather/probes/security-kit.ts.
 */
import type { View } from './evidence.ts';
import type { Obj } from '../gather/request-builder.ts';
import type { Exchange, Verdict } from '../types.ts';
import { prmOf } from '../gather/probes/security-kit.ts';
import { isLoopbackHost } from '../../util/loopback.ts';

/** the metadata probes, in the order a client tries them */
export const PRM_PROBES = ['prm', 'prm-root'] as const;
export const SESSION_SAMPLES = ['handshake', 'session-init-2', 'session-init-3'] as const;

/** Everything a server answered to a probe, as text (results, errors, raw body). */
export function answerText(ex: Exchange | undefined): string {
  if (!ex?.response) return '';
  return [ex.response.body, ...ex.response.messages.map((m) => JSON.stringify(m))].join('\n');
}

/** The user configured a credential (--auth): the recorded handshake carried an Authorization header. */
export function authConfigured(v: View): boolean {
  const h = v.x('handshake')?.request.http?.headers ?? {};
  return Object.keys(h).some((k) => k.toLowerCase() === 'authorization');
}

const rejectedStatus = (st: number | undefined) => st === 401 || st === 403;

/**
 * The auth context every auth check starts from (null = evaluate): without --auth, a server
 * that served the credential-less request does not use auth (not_applicable), and one that
 * answered 401/403 cannot be judged (the credentialed twin is missing); with --auth, the
 * credentialed twin must have been served.
 */
export function authContext(v: View): Verdict | null {
  const none = v.x('auth-none');
  if (!none) return { status: 'not_evaluable', reason: 'no_population', detail: 'the credential-less probe was not sent' };
  if (none.error?.kind === 'unreachable') return { status: 'not_evaluable', reason: 'unreachable', detail: none.error.detail };
  if (!authConfigured(v)) {
    if (rejectedStatus(none.response?.status))
      return {
        status: 'not_evaluable',
        reason: 'auth_gate',
        detail: `HTTP ${none.response?.status} without credentials: pass --auth so a credentialed twin shows the rejection is about the credential`,
      };
    return {
      status: 'not_applicable',
      reason: 'no_population',
      detail:
        'the server serves requests without credentials and no --auth was given: authorization is OPTIONAL in MCP (a local server need not use it)',
    };
  }
  if (!v.twinServed('twin'))
    return {
      status: 'not_evaluable',
      reason: 'twin_failed',
      detail: `the same request with your --auth credential was not served (HTTP ${v.status('twin') ?? '-'}), so a rejection proves nothing`,
    };
  // a credential the server ignores: served without one AND with an invalid one, and no protected-resource
  // metadata: the server does not use authorization (OPTIONAL in MCP), so the --auth given is not needed
  if (v.result('auth-none') && !rejectedStatus(v.status('auth-garbage')) && !foundPrm(v)) {
    return {
      status: 'not_applicable',
      reason: 'no_population',
      detail: `the server does not use authorization: it served the request without credentials (HTTP ${none.response?.status}) and with an invalid token (HTTP ${v.status('auth-garbage') ?? '-'}) and publishes no protected-resource metadata, so the --auth given is not one it needs`,
    };
  }
  return null;
}

/** Verdict for a probe that must be refused for lack of a valid credential (401, or 403 with a Bearer challenge). */
export function refusedForCredential(v: View, probe: string, what: string): Verdict {
  const e = v.x(probe);
  if (!e) return { status: 'not_evaluable', reason: 'no_population', detail: `${what}: probe not sent` };
  if (e.error && !e.response)
    return {
      status: 'not_evaluable',
      reason: e.error.kind === 'unreachable' ? 'unreachable' : 'timeout',
      detail: `${what}: ${e.error.detail}`,
    };
  const st = e.response!.status;
  if (st === 401) return { status: 'pass', detail: `${what}: HTTP 401` };
  if (st === 403) return { status: 'pass', detail: `${what}: HTTP 403` };
  if (st === 429) return { status: 'not_evaluable', reason: 'rate_limited', detail: `${what}: HTTP 429` };
  if (v.result(probe)) return { status: 'fail', detail: `${what}: served (HTTP ${st})` };
  return { status: 'fail', detail: `${what}: HTTP ${st}, expected 401 (or 403)` };
}

/** The metadata document the run found (challenge URL / path-inserted first, then the root one), with its exchange. */
export function foundPrm(v: View): { ex: Exchange; doc: Obj } | null {
  for (const p of PRM_PROBES) {
    const ex = v.x(p);
    const doc = prmOf(ex);
    if (ex && doc) return { ex, doc };
  }
  return null;
}

/** The target is a loopback URL (a local development server). */
export function loopbackTarget(v: View): boolean {
  try {
    return isLoopbackHost(new URL(v.ev.target).hostname);
  } catch {
    return false;
  }
}
