/**
 * The gate's steps as a dependency graph, as data: one file per step (static meta), listed here
 * in run order with the steps each one needs. A failed step blocks only the steps that need it
 * (directly or through a blocked step); every other step still runs and reports in the same run.
 * A proxy that exits during a step blocks everything after it (there is nothing left to test).
 */
import type { GateStep, StepDef } from '../types.ts';
import { step as ready } from './ready.ts';
import { step as discover } from './discover.ts';
import { step as call } from './call.ts';
import { step as meta } from './meta.ts';
import { step as concurrency } from './concurrency.ts';
import { step as hang } from './hang.ts';
import { step as crash } from './crash.ts';
import { step as kill } from './kill.ts';
import { step as isolation } from './isolation.ts';
import { step as cancel } from './cancel.ts';
import { step as progress } from './progress.ts';
import { step as budget } from './budget.ts';
import { step as regression } from './regression.ts';
import { step as compliance } from './compliance.ts';
import { networkStep } from './network.ts';
import { NETWORK_FAULTS } from '../network/faults.ts';
import type { CellDef } from '../cells.ts';
import { step as freshness } from './freshness.ts';

/**
 * [step, needs]. Why each edge:
 * - every step that calls an upstream tool needs `call` (a call round-trips at all);
 * - `budget` measures discovery responses, so it needs `discover`; `regression` compares budget's numbers;
 * - `cancel` holds a call and polls the hang fixture's stats beside it: it needs two calls in flight (`concurrency`);
 * - `kill` checks the same reconnect-without-a-nudge as `crash` (between calls instead of mid-call):
 *   a proxy that never reconnects after a crash would only be reported twice;
 * - `compliance` grades the proxy itself, it needs only a proxy that answers (`ready`);
 * - `freshness` finds tools through discovery (`discover`) and calls one (`call`); it changes the
 *   main fixture's tool list, so it runs after every step that reads that list (budget) and before
 *   `kill`, whose restart of the main fixture brings the original list back.
 */
const GRAPH: ReadonlyArray<readonly [StepDef, readonly string[]]> = [
  [ready, []],
  [discover, ['ready']],
  [call, ['ready']],
  [meta, ['call']],
  [concurrency, ['call']],
  [hang, ['call']],
  [isolation, ['call']],
  [cancel, ['concurrency']],
  [progress, ['call']],
  [budget, ['discover']],
  [regression, ['budget']],
  [freshness, ['discover', 'call']],
  // the destructive ones last but compliance: a proxy that never gets its upstream back must not
  // turn the steps after them red for that same reason
  [crash, ['call']],
  [kill, ['crash']],
  [compliance, ['ready']],
];

function build(): GateStep[] {
  const seen = new Set<string>();
  return GRAPH.map(([s, needs], i) => {
    for (const n of needs) if (!seen.has(n)) throw new Error(`steps/index.ts: ${s.meta.name} needs ${n}, which is not an earlier step`);
    seen.add(s.meta.name);
    return { meta: { ...s.meta, order: i + 1, needs }, run: s.run };
  });
}

export const STEPS: readonly GateStep[] = build();
export const STEP_NAMES: readonly string[] = STEPS.map((s) => s.meta.name);

/** Every step that needs `name`, directly or through another step. */
export function dependentsOf(name: string): string[] {
  const out = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of STEPS) {
      if (out.has(s.meta.name)) continue;
      if (s.meta.needs.some((n) => n === name || out.has(n))) {
        out.add(s.meta.name);
        grew = true;
      }
    }
  }
  return [...out];
}

// ---- network cells (cells.ts `network`): their own graph, one step per registered fault ----

/**
 * test-only (not in --help): `reverse` runs the network faults in reverse registry order, so a test
 * shows that a fault's verdict does not depend on its place (each step leaves the link as it found it).
 */
export const NET_FAULT_ORDER_ENV = 'MCPGAUGE_NET_FAULT_ORDER';
const faultsInRunOrder = () => (process.env[NET_FAULT_ORDER_ENV] === 'reverse' ? [...NETWORK_FAULTS].reverse() : NETWORK_FAULTS);

/**
 * The steps of a network cell: ready and call (the proxy serves the fixture through the fault
 * proxy at all), then one step per fault of network/faults.ts, each needing only `call`: a fault
 * that turns one red leaves the others to run (each sets and removes its own toxics).
 */
const NETWORK_GRAPH: ReadonlyArray<readonly [StepDef, readonly string[]]> = [
  [ready, []],
  [call, ['ready']],
  ...faultsInRunOrder().map((f) => [networkStep(f), ['call']] as const),
];

export const NETWORK_STEPS: readonly GateStep[] = NETWORK_GRAPH.map(([s, needs], i) => ({
  meta: { ...s.meta, order: i + 1, needs },
  run: s.run,
}));
export const NETWORK_STEP_NAMES: readonly string[] = NETWORK_STEPS.map((s) => s.meta.name);
/** every step a gate config may name under `steps` (the schema's enum lists the same): the main graph's, then the network faults' */
export const CONFIG_STEP_NAMES: readonly string[] = [...STEP_NAMES, ...NETWORK_STEP_NAMES.filter((n) => !STEP_NAMES.includes(n))];

/** The steps a cell runs: the network graph in a network cell, else the main graph. */
export function stepsOf(cell: Pick<CellDef, 'network'>): readonly GateStep[] {
  return cell.network ? NETWORK_STEPS : STEPS;
}
