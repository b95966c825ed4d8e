/** The SEP-2549 cache-hint rule shared by the *-caching checks. */
import type { View } from './evidence.ts';
import type { Verdict } from '../types.ts';

export function cachingVerdict(v: View, probe: string, what: string): Verdict {
  const gate = v.unusable(probe);
  if (gate) return gate;
  const r = v.result(probe);
  if (!r) return { status: 'not_evaluable', reason: 'no_population', detail: `${what} returned no result to inspect` };
  if (r.resultType === 'input_required') return { status: 'pass', detail: 'input_required results carry no cache hints' };
  const ttl = r.ttlMs;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0)
    return { status: 'fail', detail: `${what}: ttlMs is ${JSON.stringify(ttl)}, expected an integer >= 0` };
  if (r.cacheScope !== 'public' && r.cacheScope !== 'private')
    return { status: 'fail', detail: `${what}: cacheScope is ${JSON.stringify(r.cacheScope)}` };
  return { status: 'pass', detail: `${what}: ttlMs ${ttl}, cacheScope ${r.cacheScope}` };
}
