/**
 * Release-over-release comparison of two reports (`mcpgauge diff`). Refuses (one line naming
 * what differs) unless both measured the same corpora and golden sets; then, per figure: old,
 * new, delta, and whether the change is outside the old run's bootstrap CI (retrieval) or a
 * configured tolerance (tokens, latency, break-even, error rows). A worse change outside is a
 * regression; a figure the old report had and the new one lacks is a regression too (the new
 * run measured less).
 */
import { createHash } from 'node:crypto';
import { UserError } from '../types.ts';
import { isScored, type Report } from '../report/index.ts';
import { reportFigures, type DiffFigure, type FigureKind } from './figures.ts';
import type { Tolerances } from './tolerances.ts';

export const DIFF_VERSION = 1 as const;

export type Verdict = 'regression' | 'improvement' | 'within' | 'unchanged' | 'added' | 'removed';

export interface DiffRow {
  key: string;
  section: string;
  label: string;
  kind: FigureKind;
  better: 'lower' | 'higher';
  unit: string;
  old: number | null;
  new: number | null;
  /** new - old (null when either side is missing) */
  delta: number | null;
  /** 100 * delta / |old| (null when old is 0 or missing) */
  delta_pct: number | null;
  /** the rule applied, e.g. "outside old 95% CI [0.456, 0.674]" or "tolerance +1%" */
  rule: string;
  /** the change is outside the CI / tolerance */
  outside: boolean;
  verdict: Verdict;
  old_ci95?: [number, number];
  new_ci95?: [number, number];
  provenance: string;
  tokenizer?: string;
}

export interface ReportSide {
  path: string;
  generated_at: string;
  git_commit: string | null;
  command_line: string[];
}

export interface DiffResult {
  diff_version: typeof DIFF_VERSION;
  old: ReportSide;
  new: ReportSide;
  /** what both reports measured (identical by construction) */
  identity: string[];
  tolerances: Tolerances;
  summary: Record<Verdict, number>;
  /** 'fail' when any row is a regression */
  verdict: 'pass' | 'fail';
  rows: DiffRow[];
  /** notes such as run options that differ (allowed, but worth knowing) */
  notes: string[];
}

const short = (ids: readonly string[]): string => createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 12);

/**
 * What a report measured, as comparable lines: each corpus (id, version, tool count, a hash of
 * its tool ids) and each golden set used (per corpus and live block: version, query count, a
 * hash of the query ids).
 */
export function reportIdentity(r: Report): string[] {
  const lines = new Set<string>();
  for (const c of r.corpora)
    lines.add(`corpus ${c.id}${c.version === c.id ? '' : `@${c.version}`} (${c.tool_count} tools, ids ${short(c.tool_ids)})`);
  for (const x of r.retrieval.filter(isScored)) {
    lines.add(`golden ${x.golden_version} on ${x.corpus_id} (${x.query_count} queries, ids ${x.query_ids_sha256.slice(0, 12)})`);
  }
  for (const [name, live] of liveBlocks(r)) {
    for (const x of live.retrieval) {
      lines.add(
        `${name} golden ${x.golden_version ?? '(unversioned)'} on ${live.corpus_id ?? '(no corpus)'} (${x.query_count} queries, ids ${x.query_ids_sha256.slice(0, 12)})`,
      );
    }
  }
  if (r.scale) {
    const c = r.scale.catalog;
    lines.add(`scale catalog ${c.corpus_id} (seed ${c.seed}, sizes ${c.sizes.join(',')}, queries ${short(r.scale.queries.ids)})`);
  }
  return [...lines].sort();
}

/** Every live block of a report: the single `live` section, and each system of a side-by-side run. */
export function liveBlocks(r: Report): [string, NonNullable<Report['live']>][] {
  const out: [string, NonNullable<Report['live']>][] = [];
  if (r.live) out.push(['live', r.live]);
  for (const s of r.systems ?? []) if (s.live) out.push([`system ${s.name}`, s.live]);
  return out;
}

/** One-line refusal naming the first difference, or null when both measured the same things. */
export function identityMismatch(oldR: Report, newR: Report, oldPath: string, newPath: string): string | null {
  if (oldR.report_version !== newR.report_version)
    return `report_version ${oldR.report_version} (${oldPath}) vs ${newR.report_version} (${newPath})`;
  const a = reportIdentity(oldR);
  const b = reportIdentity(newR);
  const onlyOld = a.filter((x) => !b.includes(x));
  const onlyNew = b.filter((x) => !a.includes(x));
  if (onlyOld.length === 0 && onlyNew.length === 0) return null;
  const parts: string[] = [];
  if (onlyOld.length) parts.push(`only in ${oldPath}: ${onlyOld.join('; ')}`);
  if (onlyNew.length) parts.push(`only in ${newPath}: ${onlyNew.join('; ')}`);
  return parts.join(' | ');
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(3);
}

/** Judges one figure present on both sides. */
export function judge(o: DiffFigure, n: DiffFigure, tol: Tolerances): Pick<DiffRow, 'rule' | 'outside' | 'verdict'> {
  const delta = n.value - o.value;
  const worse = o.better === 'lower' ? delta > 0 : delta < 0;
  let outside: boolean;
  let rule: string;
  if (o.kind === 'retrieval') {
    if (o.ci95) {
      outside = n.value < o.ci95[0] || n.value > o.ci95[1];
      rule = `old 95% CI [${fmt(o.ci95[0])}, ${fmt(o.ci95[1])}]`;
    } else {
      outside = delta !== 0;
      rule = 'no CI in old report: any change';
    }
  } else if (o.kind === 'errors') {
    outside = Math.abs(delta) > tol.errors_abs;
    rule = `tolerance ±${tol.errors_abs} rows`;
  } else {
    const pct = o.kind === 'tokens' ? tol.tokens_pct : o.kind === 'latency' ? tol.latency_pct : tol.break_even_pct;
    const relOutside = o.value === 0 ? delta !== 0 : Math.abs(delta) / Math.abs(o.value) > pct / 100;
    const floorOk = o.kind !== 'latency' || Math.abs(delta) > tol.latency_floor_ms;
    outside = relOutside && floorOk;
    rule = `tolerance ±${pct}%${o.kind === 'latency' ? ` and ±${tol.latency_floor_ms} ms` : ''}`;
  }
  const verdict: Verdict = delta === 0 ? 'unchanged' : !outside ? 'within' : worse ? 'regression' : 'improvement';
  return { rule, outside, verdict };
}

function rowOf(o: DiffFigure | undefined, n: DiffFigure | undefined, tol: Tolerances): DiffRow {
  const f = (o ?? n)!;
  const base = { key: f.key, section: f.section, label: f.label, kind: f.kind, better: f.better, unit: f.unit, provenance: f.provenance };
  const row: DiffRow = {
    ...base,
    old: o ? o.value : null,
    new: n ? n.value : null,
    delta: null,
    delta_pct: null,
    rule: '',
    outside: false,
    verdict: 'unchanged',
  };
  if (f.tokenizer) row.tokenizer = f.tokenizer;
  if (o?.ci95) row.old_ci95 = o.ci95;
  if (n?.ci95) row.new_ci95 = n.ci95;
  if (o && n) {
    row.delta = n.value - o.value;
    row.delta_pct = o.value === 0 ? null : (100 * row.delta) / Math.abs(o.value);
    Object.assign(row, judge(o, n, tol));
  } else if (o) {
    Object.assign(row, { rule: 'present in old, missing in new', outside: true, verdict: 'removed' });
  } else {
    Object.assign(row, { rule: 'new figure', outside: false, verdict: 'added' });
  }
  return row;
}

function optionNotes(oldR: Report, newR: Report): string[] {
  const notes: string[] = [];
  const a = oldR.meta.options;
  const b = newR.meta.options;
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const x = JSON.stringify(a[k] ?? null);
    const y = JSON.stringify(b[k] ?? null);
    if (x !== y) notes.push(`option ${k} differs: ${x} (old) vs ${y} (new)`);
  }
  if (oldR.meta.git_commit !== newR.meta.git_commit)
    notes.push(`git commit ${oldR.meta.git_commit ?? 'unknown'} (old) vs ${newR.meta.git_commit ?? 'unknown'} (new)`);
  return notes;
}

const side = (r: Report, path: string): ReportSide => ({
  path,
  generated_at: r.meta.generated_at,
  git_commit: r.meta.git_commit,
  command_line: r.meta.command_line,
});

/** Compares two validated reports. Throws a UserError (exit 2) when they measured different things. */
export function diffReports(oldR: Report, newR: Report, paths: { old: string; new: string }, tol: Tolerances): DiffResult {
  const mismatch = identityMismatch(oldR, newR, paths.old, paths.new);
  if (mismatch) throw new UserError(`diff refused: the reports did not measure the same corpus/golden set: ${mismatch}`, 2);
  const oldF = reportFigures(oldR);
  const newF = reportFigures(newR);
  const byKeyNew = new Map(newF.map((f) => [f.key, f]));
  const byKeyOld = new Map(oldF.map((f) => [f.key, f]));
  const rows: DiffRow[] = [];
  for (const o of oldF) rows.push(rowOf(o, byKeyNew.get(o.key), tol));
  for (const n of newF) if (!byKeyOld.has(n.key)) rows.push(rowOf(undefined, n, tol));
  const summary: Record<Verdict, number> = { regression: 0, improvement: 0, within: 0, unchanged: 0, added: 0, removed: 0 };
  for (const r of rows) summary[r.verdict]++;
  return {
    diff_version: DIFF_VERSION,
    old: side(oldR, paths.old),
    new: side(newR, paths.new),
    identity: reportIdentity(oldR),
    tolerances: tol,
    summary,
    verdict: summary.regression + summary.removed > 0 ? 'fail' : 'pass',
    rows,
    notes: optionNotes(oldR, newR),
  };
}
