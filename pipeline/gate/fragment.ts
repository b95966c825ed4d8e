/**
 * One piece of a gate spread over machines: `mcpgauge gate --cells <one cell> --fragment DIR`
 * runs that cell (the normal gate run, one cell, no yardstick) and writes
 * `DIR/<cell slug>.fragment.json` (schema datasets/schemas/gate-fragment.schema.json) next to its
 * logs (`DIR/logs/<cell slug>/…`); `--cells yardstick` grades the fixture itself instead
 * (`DIR/yardstick.fragment.json`). Every fragment carries the digests of digest.ts, the last of
 * them `results`, over the fragment itself (the merge recomputes it; not a signature). Exit code:
 * the cell's own (0 green, 1 red, 2 could not run: then no fragment is written, and a stale one
 * of the same cell in DIR is removed first, so a merge never takes an old result for a new one).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../constants.ts';
import type { ValidateFunction } from 'ajv';
import { writeFileAtomic, readJsonFile, assertWritableDir } from '../util/fs.ts';
import { compileSchemaFile, describeAjvError } from '../util/schema.ts';
import { ADAPTER_DEFAULTS } from '../adapter/index.ts';
import { CELL_IDS, cellSlug } from './cells.ts';
import { harnessError, loadGateConfig } from './config.ts';
import { preflightFixture } from './cell-fixtures.ts';
import { gradeYardstick, type YardstickResult } from './yardstick.ts';
import { GATE_REPORT_SCHEMA, type GateReport } from './report.ts';
import { proxySpec, runGate, type GateOptions } from './matrix.ts';
import { configDigest, optionsDigest, packageDigest, proxyDigest, resultsDigest, type ProxyBuild } from './digest.ts';

export const GATE_FRAGMENT_SCHEMA = join(REPO_ROOT, 'datasets', 'schemas', 'gate-fragment.schema.json');
/** The pseudo-cell of `--cells yardstick`: the fixture's own compliance grade as its own fragment. */
export const YARDSTICK_ID = 'yardstick';
export const FRAGMENT_SUFFIX = '.fragment.json';

export interface GateFragment {
  schema_version: 1;
  tool: 'mcpgauge gate --fragment';
  kind: 'cell' | 'yardstick';
  id: string;
  generated_at: string;
  exit_code: 0 | 1;
  /** results: over the fragment itself without this field (digest.ts resultsDigest), set last */
  digests: { proxy: string; config: string; options: string; gate: string; results: string };
  proxy_build: ProxyBuild;
  /** kind cell: the one-cell gate report */
  report?: GateReport;
  /** kind yardstick */
  fixture_compliance?: YardstickResult;
}

/** `stdio/2025-11-25` -> `stdio_2025-11-25.fragment.json`; the yardstick -> `yardstick.fragment.json`. */
export function fragmentFileName(id: string): string {
  return `${id === YARDSTICK_ID ? YARDSTICK_ID : cellSlug(id)}${FRAGMENT_SUFFIX}`;
}

/** The id a fragment file name stands for (to charge an unparseable file to its cell), or null. */
export function idOfFragmentFile(name: string): string | null {
  return [...CELL_IDS, YARDSTICK_ID].find((id) => fragmentFileName(id) === name) ?? null;
}

let validator: ValidateFunction | undefined;

/** Schema problems of a parsed fragment, plus the one-cell rule the schema cannot say. */
export function validateFragment(f: unknown): string[] {
  validator ??= compileSchemaFile(GATE_FRAGMENT_SCHEMA, [GATE_REPORT_SCHEMA]);
  if (!validator(f)) return (validator.errors ?? []).map(describeAjvError);
  const g = f as GateFragment;
  if (g.kind === 'cell' && (g.report!.cells.length !== 1 || g.report!.cells[0].id !== g.id))
    return [`/report/cells must hold exactly the cell ${JSON.stringify(g.id)}`];
  return [];
}

export interface FragmentOptions extends GateOptions {
  fragmentDir: string;
  /** files or folders that make up the proxy under test (its build digest); see digest.ts */
  proxyBuild?: string[];
}

export interface FragmentRun {
  fragment: GateFragment;
  file: string;
  exitCode: 0 | 1;
}

export async function runFragment(o: FragmentOptions): Promise<FragmentRun> {
  const ids = o.cells ?? [];
  if (ids.length !== 1)
    throw harnessError(`--fragment: name exactly one cell with --cells (a cell of the config, or ${YARDSTICK_ID}); got ${ids.length}`);
  const id = ids[0];
  const cfg = loadGateConfig(o.configFile);
  if (id !== YARDSTICK_ID) {
    if (!CELL_IDS.includes(id))
      throw harnessError(`--cells: unknown cell ${JSON.stringify(id)} (cells: ${CELL_IDS.join(', ')}, or ${YARDSTICK_ID} with --fragment)`);
    if (!cfg.cells[id]) throw harnessError(`--cells: cell ${JSON.stringify(id)} is not in ${cfg.source}`);
  } else if (o.gradeFixture === false)
    throw harnessError(`--cells ${YARDSTICK_ID} grades the fixture: it cannot be combined with --no-fixture-grade`);
  const dir = resolve(o.fragmentDir);
  try {
    assertWritableDir(dir, '--fragment');
  } catch (e) {
    throw harnessError((e as Error).message);
  }
  const { spec } = proxySpec(o, cfg);
  const proxy = proxyDigest(spec, o.proxyBuild);
  const digests = {
    proxy: proxy.digest,
    config: configDigest(readJsonFile(cfg.source)),
    options: optionsDigest({
      clientProtocol: o.clientProtocol ?? 'legacy',
      adapter: o.adapter ?? ADAPTER_DEFAULTS,
      baselineFile: o.baselineFile,
      repeat: o.repeat,
    }),
    gate: packageDigest(),
    // set once the fragment is complete (below)
    results: '',
  };
  const file = join(dir, fragmentFileName(id));
  // a stale fragment (and stale logs) of this cell must not survive a run that dies
  rmSync(file, { force: true });
  if (id !== YARDSTICK_ID) rmSync(join(dir, 'logs', cellSlug(id)), { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const head = { schema_version: 1 as const, tool: 'mcpgauge gate --fragment' as const, id, digests, proxy_build: proxy.build };
  let fragment: GateFragment;
  if (id === YARDSTICK_ID) {
    await preflightFixture(cfg.timeouts.ready_ms);
    const y = await gradeYardstick(cfg);
    o.progress?.(`fixture compliance: ${y.status} (${y.reason.slice(0, 160)})`);
    fragment = {
      ...head,
      kind: 'yardstick',
      generated_at: new Date().toISOString(),
      exit_code: y.status === 'fail' ? 1 : 0,
      fixture_compliance: y,
    };
  } else {
    const run = await runGate({ ...o, cells: [id], outDir: dir, gradeFixture: false, writeOutputs: false, allowNothingEvaluated: true });
    fragment = { ...head, kind: 'cell', generated_at: new Date().toISOString(), exit_code: run.exitCode, report: run.report };
  }
  fragment.digests.results = resultsDigest(fragment);
  const problems = validateFragment(fragment);
  if (problems.length)
    throw harnessError(`gate fragment failed its schema (${problems.length} problem(s)): ${problems.slice(0, 3).join('; ')}`);
  writeFileAtomic(file, `${JSON.stringify(fragment, null, 2)}\n`);
  return { fragment, file, exitCode: fragment.exit_code };
}
