/** The cursor rule shared by the *-pagination checks: nextCursor, when present, is a string that fetches a valid next page. */
import type { View } from './evidence.ts';
import type { Verdict } from '../types.ts';

/** `first`/`next`: probe ids of the first page and of the page asked for with its cursor; `key`: the list field; `method`: for the detail */
export function paginationVerdict(v: View, first: string, next: string, key: string, method: string): Verdict {
  const r = v.result(first)!;
  if (!('nextCursor' in r) || r.nextCursor === undefined) return { status: 'pass', detail: 'single page (no nextCursor)' };
  if (typeof r.nextCursor !== 'string') return { status: 'fail', detail: `nextCursor is ${JSON.stringify(r.nextCursor)}, not a string` };
  const p2 = v.served(next, `${method} with the returned cursor`);
  if (!('ok' in p2)) return p2;
  const items = p2.ok[key];
  return Array.isArray(items)
    ? { status: 'pass', detail: `page 2: ${items.length} ${key}` }
    : { status: 'fail', detail: `page 2 has no ${key} array` };
}
