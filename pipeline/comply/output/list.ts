/** --list: the checks a run would evaluate, without connecting. */
import { catalogFor, selected, type Selection } from '../judge/select.ts';
import { REVISIONS, type Revision, type WireKind } from '../types.ts';

export function listChecks(revs: readonly Revision[], wire: WireKind | undefined, sel: Selection): string {
  const out: string[] = [];
  for (const rev of revs) {
    const l = catalogFor(rev, wire).filter((c) => selected(c, sel));
    out.push(`${rev}${wire ? ` over ${wire}` : ''}: ${l.length} checks`);
    for (const c of l) {
      const m = c.meta;
      out.push(
        `  ${m.id.padEnd(40)} ${m.category.padEnd(10)} ${m.severity.padEnd(13)} ${m.transports.join('+').padEnd(10)} ${m.capability ?? ''}`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}

/** --list --format json: the same selection as data, one entry per revision. */
export function listCatalog(revs: readonly Revision[], wire: WireKind | undefined, sel: Selection) {
  return revs.map((rev) => ({
    revision: rev,
    wire: wire ?? null,
    checks: catalogFor(rev, wire)
      .filter((c) => selected(c, sel))
      .map(({ meta: m }) => ({
        id: m.id,
        title: m.title,
        category: m.category,
        severity: m.severity,
        basis: m.basis ?? 'direct',
        transports: m.transports,
        capability: m.capability ?? null,
        spec: m.spec.url,
      })),
  }));
}

export const ALL_REVISIONS = REVISIONS;
