/** Defaults of the scale sweep (one home: the CLI flags and runScale read them from here). */
import type { Detail } from '../report/index.ts';

export const SCALE_DEFAULTS = {
  pageSize: 100,
  queryCount: 20,
  runs: 3,
  warmup: 1,
  limit: 10,
  detail: 'full' as Detail,
  pointTimeoutMs: 120_000,
};
