/**
 * Tolerances of `mcpgauge diff` for the figures that carry no confidence interval. Retrieval
 * metrics are judged by their bootstrap CI instead. Defaults, a small JSON file
 * (`--tolerances FILE`, same keys) and flags, later ones winning; every value checked.
 */
import { UserError } from '../types.ts';
import { readJsonFile } from '../util/fs.ts';

export interface Tolerances {
  /** token figures (menus, listings, responses): allowed relative growth, percent */
  tokens_pct: number;
  /** latency figures: allowed relative growth, percent ... */
  latency_pct: number;
  /** ... and the absolute growth (ms) below which latency never counts as a change */
  latency_floor_ms: number;
  /** break-even calls: allowed relative change, percent (fewer calls is worse) */
  break_even_pct: number;
  /** error rows: allowed absolute growth */
  errors_abs: number;
}

export const DEFAULT_TOLERANCES: Readonly<Tolerances> = {
  tokens_pct: 1,
  latency_pct: 100,
  latency_floor_ms: 25,
  break_even_pct: 5,
  errors_abs: 0,
};

const KEYS = Object.keys(DEFAULT_TOLERANCES) as (keyof Tolerances)[];

function checkValue(where: string, key: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
    throw new UserError(`${where}: ${key} must be a number >= 0, got ${JSON.stringify(v)}`);
  return v;
}

/** Reads a tolerance file: a JSON object with any of the keys of Tolerances (unknown keys are errors). */
export function loadTolerances(path: string): Partial<Tolerances> {
  const raw = readJsonFile(path);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new UserError(`${path}: must be a JSON object with keys ${KEYS.join(', ')}`);
  const out: Partial<Tolerances> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === '$schema' || k === 'description') continue;
    if (!(KEYS as string[]).includes(k)) throw new UserError(`${path}: unknown key ${JSON.stringify(k)} (valid: ${KEYS.join(', ')})`);
    out[k as keyof Tolerances] = checkValue(path, k, v);
  }
  return out;
}

/** Defaults < file < flags. */
export function resolveTolerances(file?: string, flags: Partial<Record<keyof Tolerances, unknown>> = {}): Tolerances {
  const t: Tolerances = { ...DEFAULT_TOLERANCES, ...(file ? loadTolerances(file) : {}) };
  for (const k of KEYS) if (flags[k] !== undefined) t[k] = checkValue(`--${k.replace(/_/g, '-')}`, k, flags[k]);
  return t;
}
