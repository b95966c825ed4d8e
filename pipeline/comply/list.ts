/** --list: the checks a run would evaluate, without connecting. */
import { catalogFor, selected, type Selection } from './select.ts';
import { REVISIONS, type Revision, type WireKind } from './types.ts';

export function listChecks(revs: readonly Revision[], wire: WireKind | undefined, sel: Selection): string {
  const out: string[] = [];
  for (const rev of revs) {
    const l = catalogFor(rev, wire).filter((c) => selected(c, sel));
    out.push(`${rev}${wire ? ` over ${wire}` : ''}: ${l.length} checks`);
    for (const c of l) {
      const m = c.meta;
      out.push(`  ${m.id.padEnd(40)} ${m.category.padEnd(10)} ${m.severity.padEnd(13)} ${m.transports.join('+').padEnd(10)} ${m.capability ?? ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}

export const ALL_REVISIONS = REVISIONS;
