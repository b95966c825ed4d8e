/**
 * Fail closed: the report holds exactly one result per expected cell. A cell that died without a
 * result, a duplicated result or an unknown one is red; a required cell that is not green is red;
 * `flaky` counts as green only with --allow-flaky.
 */
import type { CellResult } from './types.ts';

export interface ExpectedCell {
  id: string;
  required: boolean;
  transport: string;
  era: string;
}

export interface Assembled {
  cells: CellResult[];
  verdict: 'pass' | 'fail';
  /** "cell: reason" for everything that makes the gate red */
  failures: string[];
  /** non-green optional cells and failed advisory steps */
  advisories: string[];
}

/** A failed result standing in for a cell that has none (also used by the fragment merge). */
export function synthetic(e: ExpectedCell | { id: string; transport: string; era: string; required: boolean }, reason: string): CellResult {
  return {
    id: e.id,
    transport: e.transport,
    era: e.era,
    required: e.required,
    status: 'fail',
    reason,
    attempts: 0,
    duration_ms: 0,
    steps: [],
    metrics: {},
    logs: [],
  };
}

export function assemble(expected: readonly ExpectedCell[], results: readonly CellResult[], allowFlaky: boolean): Assembled {
  const cells: CellResult[] = [];
  const failures: string[] = [];
  const advisories: string[] = [];
  const known = new Set(expected.map((e) => e.id));
  for (const e of expected) {
    const mine = results.filter((r) => r.id === e.id);
    let cell: CellResult;
    if (mine.length === 0) cell = synthetic(e, 'the cell ended without a result (fail closed)');
    else if (mine.length > 1) cell = synthetic(e, `${mine.length} results for one cell (duplicated result, fail closed)`);
    else cell = { ...mine[0], required: e.required };
    cells.push(cell);
    for (const st of cell.steps)
      if (st.status === 'fail' && st.advisory) advisories.push(`${e.id}: step ${st.name} (advisory): ${st.reason}`);
    // not_applicable: the proxy cannot front this cell's upstreams (its declaration says so): never red
    const green = cell.status === 'pass' || cell.status === 'not_applicable' || (cell.status === 'flaky' && allowFlaky);
    if (green) continue;
    const why =
      cell.status === 'flaky' ? `flaky (${cell.reason}); counts as a pass only with --allow-flaky` : `${cell.status}: ${cell.reason}`;
    if (e.required) failures.push(`${e.id}: ${why}`);
    else if (cell.status !== 'skipped') advisories.push(`${e.id} (optional): ${why}`);
  }
  for (const r of results) {
    if (known.has(r.id)) continue;
    const cell = synthetic({ ...r, required: true }, `unknown cell ${JSON.stringify(r.id)} in the results (fail closed)`);
    cells.push(cell);
    failures.push(`${r.id}: ${cell.reason}`);
  }
  return { cells, verdict: failures.length ? 'fail' : 'pass', failures, advisories };
}

/**
 * The verdict word the CLI prints: `PASS`, `FAIL`, `INTERRUPTED`, and for a green gate with red
 * optional cells `PASS (N optional cell(s) red: ids)`, so a PASS never stands beside a counted
 * failure unexplained (a green gate's failed cells are all optional: a required one is red).
 */
export function verdictWord(r: { verdict: string; cells: readonly Pick<CellResult, 'id' | 'required' | 'status'>[] }): string {
  const word = r.verdict.toUpperCase();
  if (r.verdict !== 'pass') return word;
  const red = r.cells.filter((c) => !c.required && c.status === 'fail').map((c) => c.id);
  return red.length ? `${word} (${red.length} optional cell${red.length > 1 ? 's' : ''} red: ${red.join(', ')})` : word;
}

/**
 * The cell counts as the console's verdict line and summary.md both say them (one home):
 * `0 pass, 0 flaky, 2 fail, 0 skipped` plus `, 6 not applicable` when any cell is.
 */
export function countsText(c: { pass: number; flaky: number; fail: number; skipped: number; not_applicable?: number }): string {
  return `${c.pass} pass, ${c.flaky} flaky, ${c.fail} fail, ${c.skipped} skipped${c.not_applicable ? `, ${c.not_applicable} not applicable` : ''}`;
}
