/** Types of the gate: steps, cells, the report (datasets/schemas/gate-report.schema.json). */
import type { AdapterOptions, ProxySession, RunningProxy } from '../adapter/index.ts';
import type { PinnedProtocol } from '../mcp/protocol.ts';
import type { CellDef } from './cells.ts';
import type { GateConfig } from './config.ts';
import type { CellFixtures } from './cell-fixtures.ts';

export type StepStatus = 'pass' | 'fail' | 'flaky' | 'skipped' | 'not_applicable' | 'blocked';
export type CellStatus = 'pass' | 'fail' | 'flaky' | 'skipped' | 'not_applicable';

/** What a step file declares about itself (static). */
export interface StepFileMeta {
  /** stable id, e.g. "crash" */
  name: string;
  title: string;
  /** optional steps may be skipped without making the cell red (regression without --baseline) */
  optional?: boolean;
}

/** A step as the gate runs it: its file's meta plus its place in the graph (steps/index.ts). */
export interface StepMeta extends StepFileMeta {
  /** position in the matrix (1-based; the run order) */
  order: number;
  /** the steps whose pass this step needs; a failed (or blocked) one blocks it */
  needs: readonly string[];
}

/** What a step's run() returns; a thrown error is a fail with its message. */
export interface StepOutcome {
  status: 'pass' | 'fail' | 'skipped' | 'not_applicable';
  reason: string;
  evidence?: Record<string, unknown>;
}

/** One file of steps/: static meta and the check. */
export interface StepDef {
  meta: StepFileMeta;
  run(ctx: CellContext): Promise<StepOutcome>;
}

export interface GateStep {
  meta: StepMeta;
  run(ctx: CellContext): Promise<StepOutcome>;
}

export interface StepResult {
  name: string;
  order: number;
  status: StepStatus;
  reason: string;
  duration_ms: number;
  evidence: Record<string, unknown>;
  /** log files (relative to the report folder) of the cell, on failing steps */
  logs?: string[];
  /** set on a failed step the config marks advisory (`"steps": {"<name>": {"required": false}}`): reported, not failing the cell */
  advisory?: boolean;
  /** `gate --repeat N` (N > 1) only: the measured pass rate over the runs in which the step ran (repeat.ts) */
  rate?: StepRate;
}

/** A step's pass rate over repeated runs: a trial is one run of the step (repeat.ts). */
export interface StepRate {
  passes: number;
  /** runs in which the step ran (pass or fail; not blocked, skipped or not applicable) */
  runs: number;
  /** passes / runs, 3 decimals */
  rate: number;
  /** Wilson score interval at 95 % (util/stats.ts wilson95), 3 decimals */
  wilson95: [number, number];
  /** 1-based numbers of the runs in which it failed */
  failed_runs: number[];
}

/** Numbers a cell measured, for budgets and later baselines. */
export interface CellMetrics {
  tokenizer?: string;
  menu_tokens?: number;
  discovery_median_tokens?: number;
  recall_at_5?: number;
  latency_p95_ms?: number;
  /** how many discovery calls the numbers above rest on */
  n?: number;
}

export interface CellResult {
  id: string;
  transport: string;
  era: string;
  required: boolean;
  status: CellStatus;
  reason: string;
  attempts: number;
  duration_ms: number;
  steps: StepResult[];
  metrics: CellMetrics;
  /** log files relative to the report folder */
  logs: string[];
  style?: string;
  /**
   * docker cell: containers with the run's label found after each attempt's teardown (`docker ps
   * -a`); any is a failure of the cell, and is removed by the gate
   */
  containers?: { label: string; checked_attempts: number; left: string[]; removed: string[] };
}

/** What a baseline offers for the regression step. */
export interface BaselineMetrics {
  source: string;
  kind: 'gate' | 'bench';
  /** per cell id (gate report) or one set for every cell (bench report) */
  byCell: Record<string, CellMetrics>;
  all?: CellMetrics;
}

export interface RunOptions {
  adapter: AdapterOptions;
  baseline: BaselineMetrics | null;
  /** protocol the gate speaks to the proxy */
  clientProtocol: PinnedProtocol;
  /** how many upstreams one proxy instance fronts (1: the single-upstream cell, cell-fixtures.ts) */
  upstreams?: 1 | 'many';
  /** `--repeat N`: run each cell N times and measure each step's pass rate (1 = one run with the config's retries) */
  repeat?: number;
  /** measured start-up of the stdio fixture on this machine (preflight), ms: the ready deadline scales with it */
  fixtureStartMs?: number;
}

/** Everything a step may use; one per cell attempt. */
export interface CellContext {
  cell: CellDef;
  cfg: GateConfig;
  opts: RunOptions;
  proxy: RunningProxy;
  fixtures: CellFixtures;
  runId: string;
  /** the main session (opened by the ready step) */
  session: ProxySession | undefined;
  /** a further session with the proxy (closed with the cell) */
  openSession(): Promise<ProxySession>;
  metrics: CellMetrics;
  log(line: string): void;
}
