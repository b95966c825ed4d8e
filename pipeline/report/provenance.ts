/** How each report section's numbers are obtained: the one map the assembler and samples use. */
import type { Provenance } from '../types.ts';

export const OFFLINE_PROVENANCE: Readonly<Record<string, Provenance>> = Object.freeze({
  corpora: 'measured',
  arms: 'measured',
  savings_vs_baseline_pct: 'computed',
  retrieval: 'measured',
  'economics.break_even': 'computed',
  'economics.session_estimates': 'estimated',
});

export const LIVE_PROVENANCE: Readonly<Record<string, Provenance>> = Object.freeze({
  'live.menus': 'measured',
  'live.responses': 'measured',
  'live.retrieval': 'measured',
  'live.latency': 'measured',
  'live.economics.break_even': 'computed',
  'live.economics.session_estimates': 'estimated',
});

/** the offline result arms (present when result fixtures were profiled) */
export const RESULTS_PROVENANCE: Readonly<Record<string, Provenance>> = Object.freeze({
  results: 'measured',
  'results.savings_vs_json_pct': 'computed',
});

/** the live result cost (present when golden calls ran) */
export const LIVE_RESULT_PROVENANCE: Readonly<Record<string, Provenance>> = Object.freeze({
  'live.result_cost': 'measured',
  'live.economics.task_sessions': 'estimated',
});

/** added only when LAP actually ran (or its result was merged) */
export const LAP_PROVENANCE: Readonly<Record<string, Provenance>> = Object.freeze({ 'live.lap': 'measured' });

/** side-by-side systems: each proxy block is a live section; direct menus and listings are measured */
export const SYSTEMS_PROVENANCE: Readonly<Record<string, Provenance>> = Object.freeze({
  'systems.menus': 'measured',
  'systems.responses': 'measured',
  'systems.retrieval': 'measured',
  'systems.latency': 'measured',
  'systems.break_even': 'computed',
});

/** cost growth vs catalog size */
export const SCALE_PROVENANCE: Readonly<Record<string, Provenance>> = Object.freeze({
  'scale.points': 'measured',
  'scale.break_even': 'computed',
  'scale.fits': 'computed',
});
