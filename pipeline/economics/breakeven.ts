/**
 * Break-even of a discovery (search-first) tool menu against the full tool menu.
 *
 *   break_even_calls = (full_menu_tokens - discovery_menu_tokens) / mean_response_tokens
 *
 * i.e. how many discovery calls (each costing one mean discovery response) fit into the
 * tokens the smaller menu saves. No rounding. A numerator <= 0 means the discovery menu
 * saves nothing: an explicit "no break-even" row (calls null), whatever the mean is. A
 * positive numerator with a mean <= 0 is an input error. Every input is echoed in the row;
 * provenance is `computed`.
 */
import { UserError } from '../types.ts';

export interface BreakEvenInput {
  fullMenuTokens: number;
  discoveryMenuTokens: number;
  meanResponseTokens: number;
}

export interface BreakEvenRow {
  full_menu_tokens: number;
  discovery_menu_tokens: number;
  mean_response_tokens: number;
  /** null when no_break_even */
  break_even_calls: number | null;
  no_break_even: boolean;
  /** why there is no break-even (only when no_break_even) */
  reason?: string;
  provenance: 'computed';
}

/** Throws UserError unless `v` is a finite number (>= 0 when `nonNegative`). */
export function finiteInput(where: string, field: string, v: unknown, nonNegative = true): number {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new UserError(
      `${where}: ${field} must be a finite number, got ${typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v))}`,
    );
  if (nonNegative && v < 0) throw new UserError(`${where}: ${field} must be >= 0, got ${v}`);
  return v;
}

export function breakEven(input: BreakEvenInput): BreakEvenRow {
  if (!input || typeof input !== 'object') throw new UserError('breakEven: input must be an object');
  const full = finiteInput('breakEven', 'fullMenuTokens', input.fullMenuTokens);
  const disc = finiteInput('breakEven', 'discoveryMenuTokens', input.discoveryMenuTokens);
  const meanResp = finiteInput('breakEven', 'meanResponseTokens', input.meanResponseTokens, false);
  const saved = full - disc;
  const row: BreakEvenRow = {
    full_menu_tokens: full,
    discovery_menu_tokens: disc,
    mean_response_tokens: meanResp,
    break_even_calls: null,
    no_break_even: true,
    provenance: 'computed',
  };
  if (saved <= 0) {
    row.reason =
      saved === 0
        ? `the discovery menu costs as much as the full menu (${disc} tokens each), so discovery never pays off`
        : `the discovery menu (${disc} tokens) costs more than the full menu (${full} tokens), so discovery never pays off`;
    return row;
  }
  if (meanResp <= 0) {
    throw new UserError(`breakEven: meanResponseTokens must be > 0 when the discovery menu saves tokens (saved ${saved}), got ${meanResp}`);
  }
  row.break_even_calls = saved / meanResp;
  row.no_break_even = false;
  return row;
}

export interface BreakEvenCurveInput extends BreakEvenInput {
  /** last call count on the curve (default: twice the break-even, rounded up, within [10, 1000]; 10 without break-even) */
  maxCalls?: number;
}

export interface BreakEvenCurvePoint {
  calls: number;
  /** full menu: paid once, discovery calls are not needed */
  full_menu_tokens: number;
  /** discovery menu + calls x mean discovery response */
  discovery_tokens: number;
}

export interface BreakEvenCurve {
  break_even: BreakEvenRow;
  points: BreakEvenCurvePoint[];
  provenance: 'computed';
}

/**
 * The curve of a stored break-even row, sampled for a chart: about 20 steps up to twice the
 * break-even (at least 20 calls). Only for a report whose live stage stored break-even rows but
 * no `curves` (reports written before the live stage stored them); the stages store
 * `breakEvenCurve` points.
 */
export function sampledCurveOfRow(
  b: Pick<BreakEvenRow, 'full_menu_tokens' | 'discovery_menu_tokens' | 'mean_response_tokens' | 'break_even_calls'>,
): BreakEvenCurvePoint[] {
  const last = Math.max(20, Math.ceil(2 * (b.break_even_calls ?? 0)));
  const step = Math.max(1, Math.ceil(last / 20));
  const out: BreakEvenCurvePoint[] = [];
  for (let calls = 0; calls <= last; calls += step) {
    out.push({ calls, full_menu_tokens: b.full_menu_tokens, discovery_tokens: b.discovery_menu_tokens + calls * b.mean_response_tokens });
  }
  return out;
}

/**
 * Cumulative tokens for calls = 0..maxCalls: the full menu (constant) against the discovery
 * menu plus one mean discovery response per call. The lines cross at break_even_calls.
 */
export function breakEvenCurve(input: BreakEvenCurveInput): BreakEvenCurve {
  const be = breakEven(input);
  let max: number;
  if (input.maxCalls !== undefined) {
    const m = input.maxCalls;
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 1 || m > 100000)
      throw new UserError(`breakEvenCurve: maxCalls must be an integer in [1, 100000], got ${String(m)}`);
    max = m;
  } else {
    max = be.break_even_calls === null ? 10 : Math.min(1000, Math.max(10, Math.ceil(2 * be.break_even_calls)));
  }
  const points: BreakEvenCurvePoint[] = [];
  for (let c = 0; c <= max; c++) {
    points.push({
      calls: c,
      full_menu_tokens: be.full_menu_tokens,
      discovery_tokens: be.discovery_menu_tokens + c * be.mean_response_tokens,
    });
  }
  return { break_even: be, points, provenance: 'computed' };
}
