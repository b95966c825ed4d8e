/**
 * Session token estimates (always provenance `estimated`: a model, not a measurement):
 *
 *   estimated_tokens = round_half_up(menu + calls x mean_response x (1 + retry_rate))
 *   round_half_up(x) = floor(x + 0.5)
 *
 * for calls in {1, 3, 5, 10} by default. Rows follow the order of `calls`.
 */
import { SESSION_CALLS } from '../constants.ts';
import { UserError } from '../types.ts';
import { finiteInput } from './breakeven.ts';

/** calls per session when none are given (pipeline/constants.ts) */
export const DEFAULT_SESSION_CALLS: readonly number[] = SESSION_CALLS;

export interface SessionInput {
  menuTokens: number;
  meanResponseTokens: number;
  retryRate: number;
  calls?: readonly number[];
}

export interface SessionRow {
  calls_per_session: number;
  retry_rate: number;
  menu_tokens: number;
  mean_response_tokens: number;
  estimated_tokens: number;
  provenance: 'estimated';
}

/** floor(x + 0.5), after trimming binary noise (7000 * 1.05 = 7350.000000000001) at 9 decimals. */
export function roundHalfUp(x: number): number {
  return Math.floor(Number(x.toFixed(9)) + 0.5);
}

export function sessionEstimates(input: SessionInput): SessionRow[] {
  if (!input || typeof input !== 'object') throw new UserError('sessionEstimates: input must be an object');
  const menu = finiteInput('sessionEstimates', 'menuTokens', input.menuTokens);
  const meanResp = finiteInput('sessionEstimates', 'meanResponseTokens', input.meanResponseTokens);
  const retry = finiteInput('sessionEstimates', 'retryRate', input.retryRate);
  if (retry > 1) throw new UserError(`sessionEstimates: retryRate must be in [0, 1], got ${retry}`);
  const calls = input.calls ?? DEFAULT_SESSION_CALLS;
  if (!Array.isArray(calls) || calls.length === 0)
    throw new UserError('sessionEstimates: calls must be a non-empty array of integers >= 0');
  return calls.map((c) => {
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 0)
      throw new UserError(`sessionEstimates: calls must hold integers >= 0, got ${String(c)}`);
    return {
      calls_per_session: c,
      retry_rate: retry,
      menu_tokens: menu,
      mean_response_tokens: meanResp,
      estimated_tokens: roundHalfUp(menu + c * meanResp * (1 + retry)),
      provenance: 'estimated' as const,
    };
  });
}

/**
 * Session estimate with the result side (always `estimated`): every task is one discovery call,
 * one tool call and its result,
 *
 *   estimated_tokens = round_half_up(menu + tasks x (mean_discovery_response + mean_call + mean_result))
 *
 * for tasks in {1, 3, 5, 10} by default. Every input is echoed in the row.
 */
export interface TaskSessionInput {
  menuTokens: number;
  meanDiscoveryResponseTokens: number;
  meanCallTokens: number;
  meanResultTokens: number;
  tasks?: readonly number[];
}

export interface TaskSessionRow {
  tasks_per_session: number;
  menu_tokens: number;
  mean_discovery_response_tokens: number;
  mean_call_tokens: number;
  mean_result_tokens: number;
  /** discovery response + call + result */
  per_task_tokens: number;
  estimated_tokens: number;
  provenance: 'estimated';
}

export function taskSessionEstimates(input: TaskSessionInput): TaskSessionRow[] {
  if (!input || typeof input !== 'object') throw new UserError('taskSessionEstimates: input must be an object');
  const menu = finiteInput('taskSessionEstimates', 'menuTokens', input.menuTokens);
  const disc = finiteInput('taskSessionEstimates', 'meanDiscoveryResponseTokens', input.meanDiscoveryResponseTokens);
  const call = finiteInput('taskSessionEstimates', 'meanCallTokens', input.meanCallTokens);
  const result = finiteInput('taskSessionEstimates', 'meanResultTokens', input.meanResultTokens);
  const tasks = input.tasks ?? DEFAULT_SESSION_CALLS;
  if (!Array.isArray(tasks) || tasks.length === 0)
    throw new UserError('taskSessionEstimates: tasks must be a non-empty array of integers >= 0');
  const perTask = disc + call + result;
  return tasks.map((t) => {
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 0)
      throw new UserError(`taskSessionEstimates: tasks must hold integers >= 0, got ${String(t)}`);
    return {
      tasks_per_session: t,
      menu_tokens: menu,
      mean_discovery_response_tokens: disc,
      mean_call_tokens: call,
      mean_result_tokens: result,
      per_task_tokens: perTask,
      estimated_tokens: roundHalfUp(menu + t * perTask),
      provenance: 'estimated' as const,
    };
  });
}
