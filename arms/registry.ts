/**
 * The listing-arm registry, as data: every arm that renders tool definitions
 * (arms/listing/<id>.ts), one line each. `ARMS`, `getArm`, `resolveArms` serve the
 * offline stage, the live menus and the proxy index. Result arms (tool-call outputs) live in
 * arms/result/<id>.ts with their registry in arms/result-registry.ts.
 */
import { UserError } from '../pipeline/types.ts';
import { BASELINE_ARM_ID, type Arm } from './types.ts';
import { arm as baseline_json } from './listing/baseline_json.ts';
import { arm as compact_json } from './listing/compact_json.ts';
import { arm as compact_sig } from './listing/compact_sig.ts';
import { arm as toon_listing } from './listing/toon_listing.ts';
import { arm as tron_dedup } from './listing/tron_dedup.ts';
import { arm as tscg } from './listing/tscg.ts';

export { BASELINE_ARM_ID };

export const LISTING_ARMS: readonly Arm[] = Object.freeze([baseline_json, compact_json, compact_sig, toon_listing, tron_dedup, tscg]);

const BY_ID: ReadonlyMap<string, Arm> = new Map(LISTING_ARMS.map((a) => [a.meta.id, a]));

/** Registered listing-arm ids, sorted. */
export const ARMS: readonly string[] = Object.freeze([...BY_ID.keys()].sort());

/** The listing arm with this id; an unknown id is a UserError naming it and the valid ids. */
export function getArm(id: string): Arm {
  const a = BY_ID.get(id);
  if (!a) throw new UserError(`unknown arm "${id}" (valid: ${ARMS.join(', ')})`);
  return a;
}

/**
 * Arms for a list of ids ('all' or ['all'] = every arm), de-duplicated, in registry (sorted)
 * order, so baseline_json comes first when selected. An empty list or unknown id is a UserError.
 */
export function resolveArms(list: readonly string[] | 'all'): Arm[] {
  if (list === 'all' || (list.length === 1 && list[0] === 'all')) return ARMS.map((id) => BY_ID.get(id)!);
  if (list.length === 0) throw new UserError(`no arm given (valid: ${ARMS.join(', ')}, or all)`);
  const wanted = new Set(list.map((id) => getArm(id).meta.id));
  return ARMS.filter((id) => wanted.has(id)).map((id) => BY_ID.get(id)!);
}
