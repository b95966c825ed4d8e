/** Shared pieces for check files: revision windows, transport sets, spec URLs, the definer. */
import { isVerdict, type View } from './evidence.ts';
import { LEGACY, MODERN, type CheckMeta, type Evidence, type Revision, type Verdict, type WireKind } from '../types.ts';

/** One compliance check: static meta and a judge over the gathered evidence (kept here, next to
 * the evidence View it reads, so types.ts does not import evidence.ts: no import cycle). */
export interface Check {
  meta: CheckMeta;
  judge(ev: View): Verdict;
}

export const BOTH_ERAS = { introduced: LEGACY } as const;
export const MODERN_ONLY = { introduced: MODERN } as const;
export const LEGACY_ONLY = { introduced: LEGACY, removed: MODERN } as const;
export const ANY_WIRE: readonly WireKind[] = ['stdio', 'http', 'sse'];
export const HTTP_ONLY: readonly WireKind[] = ['http'];
export const STDIO_ONLY: readonly WireKind[] = ['stdio'];

export function specUrl(rev: Revision, path: string): string {
  return `https://modelcontextprotocol.io/specification/${rev}/${path}`;
}

type MetaIn = Omit<CheckMeta, 'prerequisites' | 'basis'> & { prerequisites?: readonly string[]; basis?: CheckMeta['basis'] };

/** A check file's single export. Prerequisites default to the handshake. */
export function defineCheck(meta: MetaIn, judge: (v: View) => Verdict | { ok: unknown }): Check {
  const full: CheckMeta = {
    ...meta,
    basis: meta.basis ?? 'direct',
    prerequisites: meta.prerequisites ?? (meta.id === 'lifecycle-handshake' || meta.id === 'transport-post' ? [] : ['lifecycle-handshake']),
  };
  return {
    meta: full,
    judge: (v) => {
      const out = judge(v);
      return isVerdict(out) ? out : { status: 'pass', detail: 'ok' };
    },
  };
}

export const pass = (detail: string, warnings?: string[]): Verdict => ({
  status: 'pass',
  detail,
  ...(warnings?.length ? { warnings } : {}),
});
export const fail = (detail: string): Verdict => ({ status: 'fail', detail });
export const na = (detail: string): Verdict => ({ status: 'not_applicable', reason: 'no_population', detail });
export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Verdict of a list of problems: pass when empty. */
export function problems(list: string[], okDetail: string): Verdict {
  return list.length ? fail(list.slice(0, 5).join('; ') + (list.length > 5 ? ` (+${list.length - 5} more)` : '')) : pass(okDetail);
}
export const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Raw-byte probes (malformed JSON, invalid request): an error response, with one of `codes` when given. */
export function rawErrorVerdict(v: View, probe: string, codes: readonly number[]): Verdict {
  const gate = v.unusable(probe, codes);
  if (gate) return gate;
  const e = v.x(probe)!;
  if (e.error?.kind === 'died') return fail(`the server died: ${e.error.detail}`);
  const err = v.error(probe);
  if (!err) {
    const st = e.response?.status;
    return fail(v.http && st !== undefined ? `HTTP ${st} without a JSON-RPC error body` : 'no error response came back');
  }
  if (codes.length && !codes.includes(err.code)) return fail(`error code ${err.code}, expected ${codes.join(' or ')}`);
  return pass(`error ${err.code}${v.http ? ` (HTTP ${e.response?.status})` : ''}`);
}

/**
 * True when the server never wrote a byte of protocol to us: no reply, no other message, no stdout
 * noise. A stdout check then has nothing to judge (a server that never started did not keep its
 * stdout clean: it kept it empty).
 */
export function heardNothing(ev: Pick<Evidence, 'exchanges' | 'noise'>): boolean {
  return (
    ev.noise.length === 0 && ev.exchanges.every((e) => !e.response || (e.response.messages.length === 0 && e.response.bodyBytes === 0))
  );
}

export const NOTHING_HEARD = 'the server never wrote to stdout (it exited or stayed silent before answering): nothing to judge';
