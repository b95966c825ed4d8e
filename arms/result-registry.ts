/** The result-arm registry: every result arm by id (json first, then sorted). */
import { UserError } from '../pipeline/types.ts';
import { RESULT_BASELINE_ARM_ID, type ResultArm } from './result-types.ts';
import { arm as json } from './result/json.ts';
import { arm as json_compact } from './result/json_compact.ts';
import { arm as toon } from './result/toon.ts';
import { arm as csv_when_tabular } from './result/csv_when_tabular.ts';

const BY_ID: ReadonlyMap<string, ResultArm> = new Map([json, json_compact, toon, csv_when_tabular].map((a) => [a.meta.id, a]));

/** Registered result arm ids: the baseline first, the rest sorted. */
export const RESULT_ARMS: readonly string[] = Object.freeze([
  RESULT_BASELINE_ARM_ID,
  ...[...BY_ID.keys()].filter((k) => k !== RESULT_BASELINE_ARM_ID).sort(),
]);

export function getResultArm(id: string): ResultArm {
  const a = BY_ID.get(id);
  if (!a) throw new UserError(`unknown result arm "${id}" (valid: ${RESULT_ARMS.join(', ')})`);
  return a;
}

/** Arms for a list of ids ('all' = every arm); the baseline is always included (savings need it). */
export function resolveResultArms(list: readonly string[] | 'all'): ResultArm[] {
  if (list === 'all' || (list.length === 1 && list[0] === 'all')) return RESULT_ARMS.map((id) => BY_ID.get(id)!);
  const wanted = new Set([RESULT_BASELINE_ARM_ID, ...list.map((id) => getResultArm(id).meta.id)]);
  return RESULT_ARMS.filter((id) => wanted.has(id)).map((id) => BY_ID.get(id)!);
}
