import { MODERN_ONLY, STDIO_ONLY, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { replyOf } from '../gather/reply.ts';
import { DUAL_ERA_PROBE } from '../gather/probes/lifecycle.ts';
import { LEGACY, MODERN } from '../types.ts';

const DATES = /\d{4}-\d{2}-\d{2}/g;

export default defineCheck(
  {
    id: 'lifecycle-dual-era',
    title: 'A legacy initialize on a fresh process is either served (dual-era) or refused naming the supported versions',
    category: 'lifecycle',
    severity: 'SHOULD',
    revisions: MODERN_ONLY,
    transports: STDIO_ONLY,
    // the exchange itself is Evidence.freshInitialize (comply.ts), apart from the graded process's exchanges
    probes: [DUAL_ERA_PROBE],
    spec: {
      url: specUrl(MODERN, 'basic/versioning#backward-compatibility-with-initialization-based-versions'),
      requirement:
        'On stdio, initialize switches that process to the old protocol; a server that only speaks 2026-07-28 SHOULD name its supported versions when it refuses initialize.',
    },
    knob: 'initialize-unclassifiable',
    fix: 'Answer a 2025-11-25 initialize either with an InitializeResult (dual-era) or with an error whose data.supported lists your versions (modern-only); never leave it unanswered or half-answered.',
  },
  (v) => {
    const ex = v.ev.freshInitialize;
    if (!ex)
      return {
        status: 'not_evaluable',
        reason: 'no_population',
        detail: 'no fresh process was started for the legacy initialize (replayed recording without it)',
      };
    const reply = replyOf(ex);
    const r = isObj(reply?.result) ? reply.result : undefined;
    if (r) {
      return typeof r.protocolVersion === 'string'
        ? pass(`dual-era: a fresh process served ${LEGACY} initialize (protocolVersion ${r.protocolVersion})`)
        : fail(
            `initialize was answered with a result that is not an InitializeResult (no protocolVersion): ${JSON.stringify(r).slice(0, 100)}`,
          );
    }
    const err = isObj(reply?.error) ? (reply.error as { code: unknown; message: unknown; data?: unknown }) : undefined;
    if (err) {
      const data = isObj(err.data) ? err.data : {};
      const supported = Array.isArray(data.supported) ? (data.supported as unknown[]).filter((x) => typeof x === 'string') : [];
      const named = supported.length ? supported : (String(err.message).match(DATES) ?? []).filter((d) => d !== LEGACY);
      if (named.length) return pass(`modern-only: initialize refused with ${err.code}, naming ${named.join(', ')}`);
      return pass(`modern-only: initialize refused with ${err.code}`, [
        `the error names no supported version (data.supported or a version in the message), e.g. ${MODERN}`,
      ]);
    }
    return fail(`a ${LEGACY} initialize on a fresh process got no classifiable answer (${ex.error?.detail ?? 'no JSON-RPC response'})`);
  },
);
