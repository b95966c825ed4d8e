/** Which checks apply to a run (revision window, transport) and which the user selected (--only/--skip). */
import { UserError } from '../../types.ts';
import { CATALOG } from '../checks/index.ts';
import { CATEGORIES, type Revision, type WireKind } from '../types.ts';
import type { Check } from './check.ts';

export function inRevision(c: Check, rev: Revision): boolean {
  const w = c.meta.revisions;
  return rev >= w.introduced && (w.removed === undefined || rev < w.removed);
}

export function catalogFor(rev: Revision, wire?: WireKind): Check[] {
  return CATALOG.filter((c) => inRevision(c, rev) && (!wire || c.meta.transports.includes(wire)));
}

export interface Selection {
  only: string[];
  skip: string[];
}

/** --only/--skip accept check ids and category names; an unknown word is a one-line error. */
export function parseSelection(only?: string, skip?: string): Selection {
  const split = (s?: string) =>
    s
      ? s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : [];
  const sel = { only: split(only), skip: split(skip) };
  const known = new Set<string>([...CATEGORIES, ...CATALOG.map((c) => c.meta.id)]);
  for (const [flag, words] of [
    ['--only', sel.only],
    ['--skip', sel.skip],
  ] as const) {
    for (const w of words)
      if (!known.has(w)) throw new UserError(`${flag}: unknown check or category ${JSON.stringify(w)} (see mcpgauge comply --list)`);
  }
  return sel;
}

export function selected(c: Check, sel: Selection): boolean {
  const hit = (l: string[]) => l.includes(c.meta.id) || l.includes(c.meta.category);
  if (sel.only.length) return hit(sel.only);
  return !hit(sel.skip);
}
