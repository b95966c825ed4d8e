import { HTTP_ONLY, LEGACY_ONLY, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { SESSION_SAMPLES } from '../judge/security.ts';
import { LEGACY } from '../types.ts';

const MIN_LENGTH = 16;
const MIN_DISTINCT = 8;

/** numeric tail of an id and what comes before it */
const split = (id: string) => {
  const m = /^(.*?)(\d+)$/.exec(id);
  return m ? { head: m[1], n: Number(m[2]) } : null;
};

export default defineCheck(
  {
    id: 'security-session-entropy',
    title: 'Session ids are long, varied and not sequential (not guessable)',
    category: 'security',
    severity: 'MUST',
    revisions: LEGACY_ONLY,
    transports: HTTP_ONLY,
    prerequisites: ['transport-post'],
    probes: [...SESSION_SAMPLES],
    spec: {
      url: specUrl(LEGACY, 'basic/security_best_practices#session-hijacking'),
      requirement: 'Server MUST issue session ids nobody can guess, and SHOULD draw them from a secure random source (a UUID v4, say).',
    },
    knob: 'sequential-session-ids',
    fix: 'Mint session ids from a CSPRNG (crypto.randomUUID() or 128 random bits).',
  },
  (v) => {
    const ids = SESSION_SAMPLES.map((p) => v.header(p, 'mcp-session-id')).filter((x): x is string => typeof x === 'string' && x.length > 0);
    if (!ids.length)
      return { status: 'not_applicable', reason: 'no_population', detail: 'the server issued no Mcp-Session-Id (stateless)' };
    const bad: string[] = [];
    for (const id of new Set(ids)) {
      if (id.length < MIN_LENGTH) bad.push(`${JSON.stringify(id)} is shorter than ${MIN_LENGTH} characters`);
      else if (new Set(id).size < MIN_DISTINCT) bad.push(`${JSON.stringify(id)} uses fewer than ${MIN_DISTINCT} distinct characters`);
    }
    if (new Set(ids).size < ids.length) bad.push('the same session id was issued twice');
    const parts = ids.map(split);
    if (ids.length >= 2 && parts.every((p) => p !== null) && parts.every((p) => p!.head === parts[0]!.head)) {
      const steps = parts.slice(1).map((p, i) => Math.abs(p!.n - parts[i]!.n));
      if (steps.every((d) => d > 0 && d <= 1000)) bad.push(`ids are sequential (${ids.join(', ')})`);
    }
    return bad.length ? fail(bad.join('; ')) : pass(`${ids.length} session ids, each ≥ ${MIN_LENGTH} characters, not sequential`);
  },
);
