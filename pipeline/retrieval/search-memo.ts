/**
 * Search results memoised for the length of one cross-validation (cv.ts runs its grid inside
 * `withSearchMemo`). A grid point is a new retriever on the same docs, and most grid points
 * share members whose ranking depends only on (member configuration, docs, query, depth), not
 * on the grid's own parameters: hybrid_rrf's 9 points search 4 distinct lexical members,
 * hybrid_static's 36 points one dense and 3 lexical ones. Within the scope a member searches
 * each (docs, query, depth) once; outside it (the bench's own searches, and the latency it
 * measures per query) every search runs. `key` names everything the ranking depends on besides
 * docs, query and depth (same key = same ranking); a searcher without one is never memoised.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IndexDoc } from '../types.ts';
/** a ranked hit as the engines return it (engine.ts SearchHit; named here so the memo imports no engine) */
interface SearchHit {
  tool_id: string;
  score: number;
}

const scope = new AsyncLocalStorage<WeakMap<readonly IndexDoc[], Map<string, readonly SearchHit[]>>>();

/** Run `fn` with a fresh memo: searches inside it (sync or awaited) share results. */
export function withSearchMemo<T>(fn: () => Promise<T>): Promise<T> {
  return scope.run(new WeakMap(), fn);
}

/**
 * `run()`'s hits for (docs, key, query, k), from the memo when a scope is active and this
 * search was already run in it; a fresh array each time (the hits themselves are shared).
 */
export function memoSearch(
  docs: readonly IndexDoc[],
  key: string | undefined,
  query: string,
  k: number,
  run: () => SearchHit[],
): SearchHit[] {
  const memo = key === undefined ? undefined : scope.getStore();
  if (!memo) return run();
  let byDocs = memo.get(docs);
  if (!byDocs) memo.set(docs, (byDocs = new Map()));
  const at = `${key}\u0000${k}\u0000${query}`;
  let got = byDocs.get(at);
  if (!got) byDocs.set(at, (got = run()));
  return got.slice();
}
