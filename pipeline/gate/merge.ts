/**
 * `mcpgauge gate merge DIR… [--config F] [--cells …] [--out DIR]`: load every fragment
 * (`*.fragment.json`, found recursively under each DIR) and write the same gate-report.json,
 * summary.md and junit.xml as a single-machine run, with the cells' logs copied next to them.
 *
 * Fail closed (each is red, with the reason, in `failures`):
 * - a cell of the merge (the config's cells, or `--cells`) with no fragment (a disabled cell
 *   without one is skipped, as a single run would); the yardstick without one (unless
 *   `--no-fixture-grade`);
 * - an unparseable fragment or one that fails its schema (charged to the cell its id or its
 *   file name names; an unattributable one is red on its own);
 * - two or more fragments for one cell;
 * - a fragment of another config (its config digest differs from the merge's `--config`), of
 *   other gate code (its gate digest differs from this mcpgauge's), or fragments that disagree
 *   on the proxy build or the run options.
 * An extra fragment (a cell not in this merge) is listed in `advisories` and ignored.
 * Exit 0 green, 1 red, 2 could not run (no DIR, a DIR that is not a folder, a bad config or --cells).
 */
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { assertWritableDir, readJsonFile } from '../util/fs.ts';
import { CELLS, CELL_IDS, cellSlug } from './cells.ts';
import { harnessError, loadGateConfig, selectCells } from './config.ts';
import { assemble, synthetic, type ExpectedCell } from './assemble.ts';
import { writeGateOutputs, type GateReport, type MergedFrom } from './report.ts';
import { skippedCell } from './matrix.ts';
import { STEPS } from './steps/index.ts';
import { FRAGMENT_SUFFIX, YARDSTICK_ID, idOfFragmentFile, validateFragment, type GateFragment } from './fragment.ts';
import { configDigest, packageDigest } from './digest.ts';
import type { CellResult } from './types.ts';
import type { YardstickResult } from './yardstick.ts';

export interface MergeOptions {
  dirs: string[];
  configFile?: string;
  /** subset of the config's cells that make up this gate (default every cell of the config) */
  cells?: string[];
  allowFlaky?: boolean;
  /** false: the yardstick fragment is not required (as `gate --no-fixture-grade`) */
  gradeFixture?: boolean;
  outDir?: string;
}

export interface MergeRun {
  report: GateReport;
  exitCode: 0 | 1;
  files: { report: string; summary: string; junit: string };
}

interface Entry {
  /** as shown: relative to the current folder */
  file: string;
  /** the folder holding the fragment (its logs are under <dir>/logs) */
  dir: string;
  id: string | null;
  fragment?: GateFragment;
  problem?: string;
  status?: MergedFrom['fragments'][number]['status'];
  reason?: string;
}

const short = (d: string) => d.slice(0, 19);

function findFragments(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) findFragments(p, out);
    else if (st.isFile() && name.endsWith(FRAGMENT_SUFFIX)) out.push(p);
  }
}

function load(path: string, want: { config: string; gate: string; configFile: string }): Entry {
  const file = relative(process.cwd(), path) || path;
  const e: Entry = { file, dir: dirname(path), id: idOfFragmentFile(basename(path)) };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    e.problem = `is unparseable (${(err as Error).message.split('\n')[0]})`;
    return e;
  }
  if (raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string') e.id = (raw as { id: string }).id;
  const problems = validateFragment(raw);
  if (problems.length) {
    e.problem = `fails the fragment schema (${problems.slice(0, 2).join('; ')})`;
    return e;
  }
  const f = raw as GateFragment;
  e.fragment = f;
  if (f.digests.config !== want.config) e.problem = `comes from a different config (config digest ${short(f.digests.config)}…, ${want.configFile} has ${short(want.config)}…)`;
  else if (f.digests.gate !== want.gate) e.problem = `was measured by other gate code (gate digest ${short(f.digests.gate)}…, this mcpgauge is ${short(want.gate)}…)`;
  return e;
}

/** "sha256:ab… (cell, cell), sha256:cd… (yardstick)" when the accepted fragments disagree on a digest. */
function disagreement(entries: readonly Entry[], key: 'proxy' | 'options'): { distinct: string[]; text: string } {
  const by = new Map<string, string[]>();
  for (const e of entries) by.set(e.fragment!.digests[key], [...(by.get(e.fragment!.digests[key]) ?? []), e.id!]);
  return { distinct: [...by.keys()], text: [...by].map(([d, ids]) => `${short(d)}… (${ids.join(', ')})`).join(', ') };
}

export async function mergeFragments(o: MergeOptions): Promise<MergeRun> {
  if (o.dirs.length === 0) throw harnessError('gate merge: name at least one fragment folder');
  const cfg = loadGateConfig(o.configFile);
  const selected = selectCells(cfg, o.cells);
  const outDir = resolve(o.outDir ?? 'results/gate');
  try {
    assertWritableDir(outDir, '--out');
  } catch (e) {
    throw harnessError((e as Error).message);
  }
  const paths: string[] = [];
  for (const d of o.dirs) {
    const abs = resolve(d);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) throw harnessError(`gate merge: ${d}: not a folder`);
    findFragments(abs, paths);
  }
  const want = { config: configDigest(readJsonFile(cfg.source)), gate: packageDigest(), configFile: basename(cfg.source) };
  const entries = [...new Set(paths)].map((p) => load(p, want));

  const cells = CELLS.filter((c) => selected.includes(c.id));
  const expected: ExpectedCell[] = cells.map((c) => ({ id: c.id, required: cfg.cells[c.id].required, transport: c.transport, era: c.era }));
  const failures: string[] = [];
  const advisories: string[] = [];
  const results: CellResult[] = [];
  const accepted: Entry[] = [];
  const mine = (id: string) => entries.filter((e) => e.id === id);
  /** the one usable fragment of `id`, or why there is none (and the entries are marked) */
  const pick = (id: string): { entry: Entry } | { why: string } | null => {
    const es = mine(id);
    if (es.length === 0) return null;
    if (es.length > 1) {
      for (const e of es) e.status = 'duplicate';
      return { why: `${es.length} fragments for one cell (${es.map((e) => e.file).join(', ')}); fail closed` };
    }
    const e = es[0];
    if (e.problem) {
      e.status = 'rejected';
      e.reason = e.problem;
      return { why: `fragment ${e.file} ${e.problem}; fail closed` };
    }
    e.status = 'accepted';
    accepted.push(e);
    return { entry: e };
  };

  for (const c of cells) {
    const p = pick(c.id);
    const e = expected.find((x) => x.id === c.id)!;
    if (p === null) {
      if (cfg.cells[c.id].enabled === false) results.push(skippedCell(c, e.required, `skipped: disabled in ${cfg.source}`));
      else results.push(synthetic(e, `no fragment for this cell in ${o.dirs.join(', ')}: its job wrote none (it died, was cancelled or did not run); fail closed`));
    } else if ('why' in p) results.push(synthetic(e, p.why));
    else results.push(p.entry.fragment!.report!.cells[0]);
  }

  let yardstick: YardstickResult | undefined;
  const needYardstick = o.gradeFixture !== false && cells.some((c) => cfg.cells[c.id].enabled !== false);
  if (needYardstick) {
    const p = pick(YARDSTICK_ID);
    if (p === null) failures.push(`fixture-compliance: no ${YARDSTICK_ID} fragment in ${o.dirs.join(', ')} (its job wrote none: run \`mcpgauge gate --cells ${YARDSTICK_ID} --fragment DIR\`, or merge with --no-fixture-grade); fail closed`);
    else if ('why' in p) failures.push(`fixture-compliance: ${p.why}`);
    else {
      yardstick = p.entry.fragment!.fixture_compliance!;
      if (yardstick.status === 'fail') failures.push(`fixture-compliance: ${yardstick.reason}`);
    }
  }

  for (const e of entries) {
    if (e.status) continue;
    if (e.id !== null && (CELL_IDS.includes(e.id) || e.id === YARDSTICK_ID)) {
      e.status = 'extra';
      e.reason = `not a cell of this merge${e.problem ? `; it also ${e.problem}` : ''}`;
      advisories.push(`extra fragment ${e.file} (${e.id}) is not part of this merge: ignored`);
    } else {
      // cannot be charged to a cell: red on its own
      e.status = 'rejected';
      e.reason = e.problem ?? `names an unknown cell ${JSON.stringify(e.id)}`;
      failures.push(`fragment ${e.file}: ${e.reason}; fail closed`);
    }
  }
  const proxies = disagreement(accepted, 'proxy');
  if (proxies.distinct.length > 1) failures.push(`proxy-build: the fragments come from ${proxies.distinct.length} different proxy builds: ${proxies.text}; fail closed`);
  const options = disagreement(accepted, 'options');
  if (options.distinct.length > 1) failures.push(`options: the fragments ran with ${options.distinct.length} different run options (client protocol, adapter options, baseline): ${options.text}; fail closed`);

  const a = assemble(expected, results, o.allowFlaky ?? false);
  a.failures.push(...failures);
  a.advisories.push(...advisories);
  const verdict = a.failures.length ? 'fail' : 'pass';
  const head = accepted.find((e) => e.fragment!.kind === 'cell')?.fragment!.report;
  const count = (s: string) => a.cells.filter((c) => c.status === s).length;
  const style = a.cells.find((c) => c.style)?.style;
  const cellFragments = accepted.filter((e) => e.fragment!.kind === 'cell');
  const totals = accepted.map((e) => (e.fragment!.kind === 'cell' ? e.fragment!.report!.timing.total_ms : e.fragment!.fixture_compliance!.duration_ms));
  // header fields (and any the run adds later) as the fragments' own one-cell reports carry them;
  // the gate digest guarantees the same gate code wrote them
  const { fixture_compliance: _none, merged_from: _nor, ...base } = head ?? {
    proxy: { description: 'unknown: no cell fragment was accepted' },
    options: { baseline: null, client_protocol: 'legacy' as const },
    steps: STEPS.map((s) => ({ order: s.meta.order, name: s.meta.name, title: s.meta.title, optional: s.meta.optional === true })),
  };
  const report: GateReport = {
    ...(base as GateReport),
    schema_version: 1,
    tool: 'mcpgauge gate',
    generated_at: new Date().toISOString(),
    verdict,
    exit_code: verdict === 'pass' ? 0 : 1,
    proxy: { description: base.proxy.description, ...(style ? { style } : {}) },
    config: { file: cfg.source },
    options: {
      ...(base.options as GateReport['options']),
      jobs: Math.max(1, cellFragments.length),
      allow_flaky: o.allowFlaky ?? false,
      cells: selected,
      baseline: base.options.baseline,
      client_protocol: base.options.client_protocol,
      retries: cfg.retries,
    },
    steps: base.steps,
    cells: a.cells,
    counts: { pass: count('pass'), fail: count('fail'), flaky: count('flaky'), skipped: count('skipped') },
    failures: a.failures,
    advisories: a.advisories,
    ...(yardstick ? { fixture_compliance: yardstick } : {}),
    merged_from: {
      fragments: entries.map((e) => ({ file: e.file, id: e.id, kind: e.fragment?.kind ?? null, status: e.status!, ...(e.reason ? { reason: e.reason } : {}) })),
      digests: { config: want.config, gate: want.gate, proxy: proxies.distinct, options: options.distinct },
    },
    // the longest job: the matrix's wall time when every job ran at once
    timing: { total_ms: Math.max(0, ...totals), provenance: 'measured' },
  };
  // the cells' logs next to the report, at the paths the cells name
  for (const e of cellFragments) {
    const slug = cellSlug(e.id!);
    const from = join(e.dir, 'logs', slug);
    const to = join(outDir, 'logs', slug);
    if (!existsSync(from) || resolve(from) === resolve(to)) continue;
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true });
  }
  const files = writeGateOutputs(report, outDir);
  return { report, exitCode: report.exit_code === 0 ? 0 : 1, files };
}
