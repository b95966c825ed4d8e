/**
 * Era detection: one conformant server/discover. A DiscoverResult or a modern error code
 * (-32020/-32021/-32022) means 2026-07-28; 401/403 means undetermined (warned); anything else,
 * or silence within the startup timeout, means 2025-11-25.
 */
import { build, type Obj } from './request-builder.ts';
import { replyOf } from './reply.ts';
import { LEGACY, MODERN, type Exchange, type Revision } from '../types.ts';
import type { Wire } from '../wire/types.ts';

export interface EraProbe {
  era: Revision | 'undetermined';
  reason: string;
  /** the DiscoverResult's supportedVersions, when modern */
  supported?: string[];
  exchange: Exchange;
}

const MODERN_CODES = [-32020, -32021, -32022];
const ERA_PROBE_ID = 990001;

export async function probeEra(wire: Wire, userHeaders: Record<string, string>, timeoutMs: number): Promise<EraProbe> {
  const b = build({ revision: MODERN, userHeaders }, ERA_PROBE_ID, 'server/discover');
  const ex = await wire.send({
    probe: 'era-probe',
    body: JSON.stringify(b.message),
    id: ERA_PROBE_ID,
    expect: 'reply',
    http: wire.kind === 'http' ? { method: 'POST', headers: b.headers } : undefined,
    timeoutMs,
  });
  return { ...classify(ex, 'authorization' in lower(userHeaders)), exchange: ex };
}

function lower(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

export function classify(ex: Exchange, authSent: boolean): Omit<EraProbe, 'exchange'> {
  const why = (s: string) => `server/discover -> ${s}`;
  const st = ex.response?.status;
  if (st === 401 || st === 403) {
    return {
      era: 'undetermined',
      reason: why(
        `HTTP ${st} (${authSent ? 'credential rejected: check --auth' : 'authentication required: pass --auth'}); era not determinable, grading ${LEGACY}`,
      ),
    };
  }
  const reply = replyOf(ex);
  const fell = (s: string) => why(`${s}: fell back to ${LEGACY}`);
  if (!reply) {
    if (ex.error?.kind === 'id_mismatch' || ex.error?.kind === 'echoed' || ex.error?.kind === 'died' || ex.error?.kind === 'unframed')
      return { era: LEGACY, reason: fell(ex.error.detail) };
    return {
      era: LEGACY,
      reason: fell(
        ex.error
          ? `no answer (${ex.error.kind}: ${ex.error.detail})`
          : `${st ? `HTTP ${st} without a JSON-RPC answer` : 'an answer that is not JSON-RPC'}`,
      ),
    };
  }
  const paired = ex.idMismatch ? ` (answered with id ${JSON.stringify(ex.idMismatch.got)} for ${JSON.stringify(ex.idMismatch.sent)})` : '';
  const r = reply.result as Obj | undefined;
  if (r && Array.isArray(r.supportedVersions))
    return {
      era: MODERN,
      reason: why(`supportedVersions ${JSON.stringify(r.supportedVersions)}${paired}`),
      supported: r.supportedVersions as string[],
    };
  const code = (reply.error as { code?: number } | undefined)?.code;
  if (code !== undefined && MODERN_CODES.includes(code)) return { era: MODERN, reason: why(`modern error ${code}${paired}`) };
  return {
    era: LEGACY,
    reason: fell(
      code !== undefined ? `JSON-RPC error ${code}, not a modern error${paired}` : `a result without supportedVersions${paired}`,
    ),
  };
}
