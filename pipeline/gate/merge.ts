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
 * A merge in which every required cell is not_applicable (nothing required was evaluated) is
 * exit 2, as a single run is.
 * A fragment whose `digests.results` does not match its content (edited or truncated after it was
 * written, digest.ts resultsDigest) is refused: exit 2, one line, nothing written.
 * Links are never followed: a symbolic link (or anything but a plain file or folder, or a file
 * with more than one hard link) under a DIR or in a fragment's logs is skipped and named in
 * `advisories`; a linked folder is not descended.
 * Exit 0 green, 1 red, 2 could not run (no DIR, a DIR that is not a folder, a bad config or
 * --cells, no required cell evaluated, a fragment whose results digest does not match).
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { assertWritableDir, readInputText, readJsonFile } from '../util/fs.ts';
import { CELLS, CELL_IDS, cellSlug, type CellDef } from './cells.ts';
import { harnessError, loadGateConfig, selectCells, type GateConfig } from './config.ts';
import { assemble, synthetic, type ExpectedCell } from './assemble.ts';
import { writeGateOutputs, type GateReport, type MergedFrom } from './report.ts';
import { skippedCell } from './matrix.ts';
import { STEPS } from './steps/index.ts';
import { FRAGMENT_SUFFIX, YARDSTICK_ID, idOfFragmentFile, validateFragment, type GateFragment } from './fragment.ts';
import { configDigest, packageDigest, resultsDigest } from './digest.ts';
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

/** what an entry that is neither a plain file nor a folder is, for the note that skips it */
function oddKind(st: Stats): string | null {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return null;
  if (!st.isFile()) return 'not a plain file';
  return st.nlink > 1 ? `a file with ${st.nlink} hard links` : null;
}

/** `*.fragment.json` under `dir`, never through a link (lstat); skipped links are noted (those in a logs/ folder by copyLogs). */
function findFragments(dir: string, out: string[], skipped: string[], inLogs = false): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = lstatSync(p);
    const odd = oddKind(st);
    if (odd !== null) {
      if (!inLogs && (st.isSymbolicLink() || name.endsWith(FRAGMENT_SUFFIX)))
        skipped.push(`${relative(process.cwd(), p) || p} is ${odd}: not followed, not read`);
    } else if (st.isDirectory()) findFragments(p, out, skipped, inLogs || name === 'logs');
    else if (name.endsWith(FRAGMENT_SUFFIX)) out.push(p);
  }
}

/**
 * Copy a fragment's log folder as plain files and folders only: every entry is lstat'ed, a link
 * (or a device, a socket, a hard-linked file) is skipped and named in `skipped`, a file is opened
 * with O_NOFOLLOW; nothing outside the fragment is ever read.
 */
function copyLogs(from: string, to: string, shown: string, skipped: string[]): void {
  let st: Stats;
  try {
    st = lstatSync(from);
  } catch {
    return;
  }
  const odd = oddKind(st);
  if (odd !== null) {
    skipped.push(`${shown} is ${odd}`);
    return;
  }
  if (st.isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from).sort()) copyLogs(join(from, name), join(to, name), `${shown}/${name}`, skipped);
    return;
  }
  const fd = openSync(from, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    // the same file lstat saw (not swapped for a link since)
    const now = fstatSync(fd);
    if (!now.isFile() || now.ino !== st.ino || now.dev !== st.dev) {
      skipped.push(`${shown} changed while being copied`);
      return;
    }
    writeFileSync(to, readFileSync(fd), { flag: 'wx' });
  } finally {
    closeSync(fd);
  }
}

function load(path: string, want: { config: string; gate: string; configFile: string }): Entry {
  const file = relative(process.cwd(), path) || path;
  const e: Entry = { file, dir: dirname(path), id: idOfFragmentFile(basename(path)) };
  let raw: unknown;
  try {
    raw = JSON.parse(readInputText(path, 'a fragment file'));
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
  // edited or truncated after it was written (a verdict turned green, say): refused outright, nothing is merged
  const recomputed = resultsDigest(f);
  if (recomputed !== f.digests.results) {
    throw harnessError(
      `gate merge: fragment ${file}: digests.results does not match its content (it says ${short(f.digests.results)}…, the content gives ${short(recomputed)}…): changed after it was written; nothing merged`,
    );
  }
  e.fragment = f;
  if (f.digests.config !== want.config)
    e.problem = `comes from a different config (config digest ${short(f.digests.config)}…, ${want.configFile} has ${short(want.config)}…)`;
  else if (f.digests.gate !== want.gate)
    e.problem = `was measured by other gate code (gate digest ${short(f.digests.gate)}…, this mcpgauge is ${short(want.gate)}…)`;
  return e;
}

/** "sha256:ab… (cell, cell), sha256:cd… (yardstick)" when the accepted fragments disagree on a digest. */
function disagreement(entries: readonly Entry[], key: 'proxy' | 'options'): { distinct: string[]; text: string } {
  const by = new Map<string, string[]>();
  for (const e of entries) by.set(e.fragment!.digests[key], [...(by.get(e.fragment!.digests[key]) ?? []), e.id!]);
  return { distinct: [...by.keys()], text: [...by].map(([d, ids]) => `${short(d)}… (${ids.join(', ')})`).join(', ') };
}

type Pick = { entry: Entry } | { why: string } | null;

/** pick(id): the one usable fragment of `id` (marked accepted and added to `accepted`), or why there is none (the entries are marked) */
function picker(entries: readonly Entry[], accepted: Entry[]): (id: string) => Pick {
  const mine = (id: string) => entries.filter((e) => e.id === id);
  return (id: string): Pick => {
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
}

/** the fixture's own grade from its fragment; a missing, duplicate, rejected or failing one is a failure */
function mergedYardstick(pick: (id: string) => Pick, dirs: readonly string[], failures: string[]): YardstickResult | undefined {
  const p = pick(YARDSTICK_ID);
  if (p === null)
    failures.push(
      `fixture-compliance: no ${YARDSTICK_ID} fragment in ${dirs.join(', ')} (its job wrote none: run \`mcpgauge gate --cells ${YARDSTICK_ID} --fragment DIR\`, or merge with --no-fixture-grade); fail closed`,
    );
  else if ('why' in p) failures.push(`fixture-compliance: ${p.why}`);
  else {
    const yardstick = p.entry.fragment!.fixture_compliance!;
    if (yardstick.status === 'fail') failures.push(`fixture-compliance: ${yardstick.reason}`);
    return yardstick;
  }
  return undefined;
}

/** every fragment file under the folders, loaded and checked against this config and this gate code */
function readFragments(dirs: readonly string[], cfg: GateConfig) {
  const paths: string[] = [];
  const skipped: string[] = [];
  for (const d of dirs) {
    const abs = resolve(d);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) throw harnessError(`gate merge: ${d}: not a folder`);
    findFragments(abs, paths, skipped);
  }
  const want = { config: configDigest(readJsonFile(cfg.source)), gate: packageDigest(), configFile: basename(cfg.source) };
  const entries = [...new Set(paths)].map((p) => load(p, want));
  return { entries, skipped, want };
}

/** entries no cell or the yardstick took: another cell's (extra, an advisory) or nobody's (rejected, a failure) */
function judgeLeftovers(entries: Entry[], failures: string[], advisories: string[]): void {
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
}

/** the cells' logs next to the report, at the paths the cells name: plain files and folders only (what is not copied goes to `skipped`) */
function copyCellLogs(cellFragments: readonly Entry[], outDir: string, skipped: string[]): void {
  for (const e of cellFragments) {
    const slug = cellSlug(e.id!);
    const from = join(e.dir, 'logs', slug);
    const to = join(outDir, 'logs', slug);
    if (resolve(from) === resolve(to)) continue;
    rmSync(to, { recursive: true, force: true });
    const logs: string[] = [];
    // the logs/ folder itself is checked like any entry: a linked logs/ is not descended either
    const top = (() => {
      try {
        return lstatSync(join(e.dir, 'logs'));
      } catch {
        return null;
      }
    })();
    const odd = top && oddKind(top);
    if (odd) logs.push(`logs is ${odd}`);
    else if (top) copyLogs(from, to, `logs/${slug}`, logs);
    if (logs.length)
      skipped.push(
        `${e.file}: ${logs.length > 10 ? `${logs.slice(0, 10).join('; ')}; and ${logs.length - 10} more` : logs.join('; ')}: not followed, not copied`,
      );
  }
}

/** each cell's result, in cell order: its accepted fragment's, or why it has none (skipped when disabled, else red) */
function pickCellResults(
  cells: readonly CellDef[],
  expected: readonly ExpectedCell[],
  pick: (id: string) => Pick,
  cfg: GateConfig,
  dirs: readonly string[],
  results: CellResult[],
): void {
  for (const c of cells) {
    const p = pick(c.id);
    const e = expected.find((x) => x.id === c.id)!;
    if (p === null) {
      if (cfg.cells[c.id].enabled === false) results.push(skippedCell(c, e.required, `skipped: disabled in ${cfg.source}`));
      else
        results.push(
          synthetic(
            e,
            `no fragment for this cell in ${dirs.join(', ')}: its job wrote none (it died, was cancelled or did not run); fail closed`,
          ),
        );
    } else if ('why' in p) results.push(synthetic(e, p.why));
    else results.push(p.entry.fragment!.report!.cells[0]);
  }
}

/** the accepted fragments must agree on the proxy build and the run options (else a failure each) */
function judgeAgreement(accepted: readonly Entry[], failures: string[]) {
  const proxies = disagreement(accepted, 'proxy');
  if (proxies.distinct.length > 1)
    failures.push(`proxy-build: the fragments come from ${proxies.distinct.length} different proxy builds: ${proxies.text}; fail closed`);
  const options = disagreement(accepted, 'options');
  if (options.distinct.length > 1)
    failures.push(
      `options: the fragments ran with ${options.distinct.length} different run options (client protocol, adapter options, baseline): ${options.text}; fail closed`,
    );
  return { proxies, options };
}

/** the report header from the first accepted cell fragment (a placeholder when none was accepted) */
function reportBase(accepted: readonly Entry[]) {
  const head = accepted.map((e) => e.fragment!).find((f) => f.kind === 'cell')?.report;
  // header fields (and any the run adds later) as the fragments' own one-cell reports carry them;
  // the gate digest guarantees the same gate code wrote them
  const {
    fixture_compliance: _none,
    merged_from: _nor,
    ...base
  } = head ?? {
    proxy: { description: 'unknown: no cell fragment was accepted' },
    options: { baseline: null, client_protocol: 'legacy' as const },
    steps: STEPS.map((s) => ({ order: s.meta.order, name: s.meta.name, title: s.meta.title, optional: s.meta.optional === true })),
  };
  return base;
}

/** the report's counts of the assembled cells by status (not_applicable only when there is one) */
function countStatuses(cells: readonly CellResult[]): GateReport['counts'] {
  const count = (s: string) => cells.filter((c) => c.status === s).length;
  return {
    pass: count('pass'),
    fail: count('fail'),
    flaky: count('flaky'),
    skipped: count('skipped'),
    ...(count('not_applicable') ? { not_applicable: count('not_applicable') } : {}),
  };
}

/** the report's merged_from: every fragment with its verdict, and the digests they were checked against */
function mergedFrom(entries: readonly Entry[], want: { config: string; gate: string }, proxy: string[], options: string[]): MergedFrom {
  return {
    fragments: entries.map((e) => ({
      file: e.file,
      id: e.id,
      kind: e.fragment?.kind ?? null,
      status: e.status!,
      ...(e.reason ? { reason: e.reason } : {}),
    })),
    digests: { config: want.config, gate: want.gate, proxy, options },
  };
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
  const { entries, skipped, want } = readFragments(o.dirs, cfg);

  const cells = CELLS.filter((c) => selected.includes(c.id));
  const expected: ExpectedCell[] = cells.map((c) => ({ id: c.id, required: cfg.cells[c.id].required, transport: c.transport, era: c.era }));
  const failures: string[] = [];
  const advisories: string[] = [];
  const results: CellResult[] = [];
  const accepted: Entry[] = [];
  const pick = picker(entries, accepted);

  pickCellResults(cells, expected, pick, cfg, o.dirs, results);

  // as in a single run (matrix.ts, "no required cell can run"): a merge in which no required cell was
  // evaluated (each one's fragment says not_applicable: the proxy cannot front it) is not a green gate
  const requiredResults = results.filter((r) => cfg.cells[r.id].required);
  if (requiredResults.length && requiredResults.every((r) => r.status === 'not_applicable')) {
    throw harnessError(`gate merge: no required cell was evaluated: ${requiredResults.map((r) => `${r.id} ${r.reason}`).join('; ')}`);
  }

  const yardstick =
    o.gradeFixture !== false && cells.some((c) => cfg.cells[c.id].enabled !== false) ? mergedYardstick(pick, o.dirs, failures) : undefined;

  judgeLeftovers(entries, failures, advisories);
  const { proxies, options } = judgeAgreement(accepted, failures);

  const cellFragments = accepted.filter((e) => e.fragment!.kind === 'cell');
  copyCellLogs(cellFragments, outDir, skipped);
  for (const s of skipped) advisories.push(`skipped in the fragments: ${s}`);

  const a = assemble(expected, results, o.allowFlaky ?? false);
  a.failures.push(...failures);
  a.advisories.push(...advisories);
  const verdict = a.failures.length ? 'fail' : 'pass';
  const style = a.cells.find((c) => c.style)?.style;
  const totals = accepted.map((e) =>
    e.fragment!.kind === 'cell' ? e.fragment!.report!.timing.total_ms : e.fragment!.fixture_compliance!.duration_ms,
  );
  const base = reportBase(accepted);
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
    counts: countStatuses(a.cells),
    failures: a.failures,
    advisories: a.advisories,
    ...(yardstick ? { fixture_compliance: yardstick } : {}),
    merged_from: mergedFrom(entries, want, proxies.distinct, options.distinct),
    // the longest job: the matrix's wall time when every job ran at once
    timing: { total_ms: Math.max(0, ...totals), provenance: 'measured' },
  };
  const files = writeGateOutputs(report, outDir);
  return { report, exitCode: report.exit_code === 0 ? 0 : 1, files };
}
