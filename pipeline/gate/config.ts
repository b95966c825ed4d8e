/**
 * gate.config.json: loaded, checked against datasets/schemas/gate.config.schema.json (strict:
 * unknown keys and bad values are errors), one line naming the file, the field and the problem,
 * exit 2 (a harness error, not a failed check). A config in which no cell is required is refused
 * the same way: no result could turn its gate red, so its PASS would say nothing.
 */
import { dirname, join, resolve } from 'node:path';
import { REPO_ROOT } from '../constants.ts';
import type { ValidateFunction } from 'ajv';
import { UserError } from '../types.ts';
import { CELL_IDS, NETWORK_CELL_IDS } from './cells.ts';
import { readJsonFile } from '../util/fs.ts';
import { DEFAULT_LOG_CAP_BYTES } from '../util/log.ts';
import { compileSchemaFile, describeAjvError } from '../util/schema.ts';
import type { TokenizerName } from '../tokens/tokenizer.ts';
import type { Letter } from '../comply/output/grade.ts';
import type { SpecChoice } from '../comply/types.ts';

export const GATE_CONFIG_SCHEMA = join(REPO_ROOT, 'datasets', 'schemas', 'gate.config.schema.json');
export const DEFAULT_GATE_CONFIG = join(REPO_ROOT, 'gate.config.json');
/** Exit code of a harness error (bad config, fixture that cannot start, report that cannot be written). */
export const HARNESS_EXIT = 2;

export interface GateConfig {
  cells: Record<string, { required: boolean; enabled?: boolean }>;
  /**
   * per step: `required: false` = advisory (reported, not failing the cell); absent = required;
   * `min_pass_rate` (0..1): with `--repeat N`, a step whose passes / runs is below it fails (repeat.ts)
   */
  steps: Record<string, { required?: boolean; min_pass_rate?: number }>;
  jobs: number;
  retries: number;
  timeouts: {
    ready_ms: number;
    step_ms: number;
    proxy_call_timeout_ms: number;
    hang_margin_ms: number;
    recovery_ms: number;
    cancel_ms: number;
    barrier_timeout_s: number;
    cell_ms: number;
    /** deadline of the whole run (absent: derived from cells x cell_ms, matrix.ts runDeadlineMs) */
    run_ms?: number;
    /** deadline of the fixture-grade phase (absent: 20 x step_ms) */
    fixture_grade_ms?: number;
    /** freshness: the most ms from a tool list change to the proxy showing it (absent in the file: DEFAULT_FRESH_MS) */
    fresh_ms: number;
  };
  /** largest log file per process (head + tail kept) */
  log_cap_bytes: number;
  budgets: {
    tokenizer: TokenizerName;
    menu_tokens: number;
    discovery_median_tokens: number;
    limit: number;
    queries: Array<{ query: string; tool: string }>;
  };
  tolerances: { tokens_pct: number; recall_at_5_drop: number; latency_p95_pct: number };
  proxy: { command: string; config_template?: string; url?: string };
  /** the compliance step: minimum conformance grade per graded revision (absent: the step is skipped) */
  compliance?: { min_grade: Letter; spec_version: SpecChoice; skip: string[] };
  /**
   * the network cells (cells.ts `net:*`: the fixture behind toxiproxy): run when `enabled` (or
   * `gate --network`); `required` (default true) as for a cell. Absent: `{enabled: false, required: true}`.
   */
  network: { enabled: boolean; required: boolean };
  /** absolute path of the file it came from */
  source: string;
}

/** freshness step: default of `timeouts.fresh_ms` (a notified proxy needs well under a second) */
export const DEFAULT_FRESH_MS = 5000;

let validator: ValidateFunction | undefined;

export function harnessError(message: string): UserError {
  return new UserError(message, HARNESS_EXIT);
}

/** Validate a parsed config; paths in it resolve against the config file's folder. */
export function validateGateConfig(raw: unknown, source: string): GateConfig {
  validator ??= compileSchemaFile(GATE_CONFIG_SCHEMA);
  if (!validator(raw)) {
    const first = (validator.errors ?? [])[0];
    throw harnessError(`${source}: ${first ? describeAjvError(first) : 'invalid'}`);
  }
  const c = raw as Omit<GateConfig, 'source' | 'jobs' | 'retries' | 'compliance' | 'steps' | 'log_cap_bytes'> & {
    steps?: GateConfig['steps'];
    jobs?: number;
    retries?: number;
    budgets: { limit?: number };
    compliance?: { min_grade: Letter; spec_version?: SpecChoice; skip?: string[] };
    network?: { enabled?: boolean; required?: boolean };
  };
  // a gate that no result can turn red is not a gate: every cell optional is a config error, not a green run
  if (!Object.values(c.cells).some((cell) => cell.required)) {
    throw harnessError(
      `${source}: /cells: no cell is required (every cell has "required": false), so no result could make the gate red; mark at least one cell "required": true`,
    );
  }
  const dir = dirname(resolve(source));
  const proxy = { ...c.proxy };
  if (proxy.config_template !== undefined) proxy.config_template = resolve(dir, proxy.config_template);
  const network = { enabled: c.network?.enabled ?? false, required: c.network?.required ?? true };
  return {
    // the network cells are known to every config (run only where asked: `network.enabled`, --network, --cells net:…)
    // (one listed in `cells` keeps its own entry)
    cells: { ...Object.fromEntries(NETWORK_CELL_IDS.map((id) => [id, { required: network.required }])), ...c.cells },
    network,
    steps: c.steps ?? {},
    jobs: c.jobs ?? 0,
    retries: c.retries ?? 1,
    timeouts: { ...c.timeouts, fresh_ms: c.timeouts.fresh_ms ?? DEFAULT_FRESH_MS },
    log_cap_bytes: (c as { log_cap_bytes?: number }).log_cap_bytes ?? DEFAULT_LOG_CAP_BYTES,
    budgets: { ...c.budgets, limit: c.budgets.limit ?? 5 },
    tolerances: c.tolerances,
    proxy,
    ...(c.compliance
      ? {
          compliance: {
            min_grade: c.compliance.min_grade,
            spec_version: c.compliance.spec_version ?? 'auto',
            skip: c.compliance.skip ?? [],
          },
        }
      : {}),
    source: resolve(source),
  };
}

export function loadGateConfig(path: string = DEFAULT_GATE_CONFIG): GateConfig {
  let raw: unknown;
  try {
    raw = readJsonFile(path);
  } catch (e) {
    throw harnessError((e as Error).message);
  }
  return validateGateConfig(raw, path);
}

/**
 * `--cells` (absent: every cell of the config, the network cells only with `network`, i.e. config
 * `network.enabled` or `--network`): each id a known cell that the config has, and at
 * least one of them required (`needRequired`, default true; a fragment runs one cell of a gate,
 * optional or not, and leaves that rule to the merge); one line, exit 2, otherwise.
 */
export function selectCells(
  cfg: GateConfig,
  cells: readonly string[] | undefined,
  needRequired = true,
  network = cfg.network.enabled,
): string[] {
  const selected = [...(cells ?? Object.keys(cfg.cells).filter((id) => network || !NETWORK_CELL_IDS.includes(id)))];
  // --network with --cells: the listed cells and the network cells
  if (cells && network) for (const id of NETWORK_CELL_IDS) if (!selected.includes(id)) selected.push(id);
  for (const id of selected) {
    if (!CELL_IDS.includes(id)) throw harnessError(`--cells: unknown cell ${JSON.stringify(id)} (cells: ${CELL_IDS.join(', ')})`);
    if (!cfg.cells[id]) throw harnessError(`--cells: cell ${JSON.stringify(id)} is not in ${cfg.source}`);
  }
  if (selected.length === 0) throw harnessError('--cells: no cell selected');
  if (needRequired && !selected.some((id) => cfg.cells[id].required)) {
    // the cells a run without --cells would have: the network cells only when they are on
    const required = Object.keys(cfg.cells).filter((id) => cfg.cells[id].required && (network || !NETWORK_CELL_IDS.includes(id)));
    throw harnessError(
      `--cells ${selected.join(',')}: no required cell selected (required in ${cfg.source}: ${required.join(', ')}), so no result could make the gate red`,
    );
  }
  return selected;
}
