/**
 * Exact token counting of many texts under every tokenizer, on this thread and (for large
 * scopes) a worker thread (worker_client.ts), with a per-tokenizer line-chunk memo
 * (chunk_memo.ts). Where a count runs never changes its value (test/bench/parallel.test.ts).
 */
import { UserError } from '../types.ts';
import { getTokenizer, isTokenizerName, TOKENIZER_NAMES, type TokenizerName } from './tokenizer.ts';
import type { CountWorker } from './worker_client.ts';
import { createChunkCounter, type ChunkCounter } from './chunk_memo.ts';

/** Tokenizer names in report order, validated like resolveTokenizers (without loading them). */
export function tokenizerNames(list: readonly string[] | 'all'): TokenizerName[] {
  const names = list === 'all' || (list.length === 1 && list[0] === 'all') ? TOKENIZER_NAMES : list;
  if (names.length === 0) throw new UserError(`no tokenizer given (valid: ${TOKENIZER_NAMES.join(', ')})`);
  const out: TokenizerName[] = [];
  for (const n of names) {
    if (!isTokenizerName(n))
      getTokenizer(n); // throws the UserError naming it
    else if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** MCPGAUGE_THREADS: unset = default (2 threads when useful); a positive integer; 1 = single thread. */
export function threadsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const v = env.MCPGAUGE_THREADS;
  if (v === undefined || v === '') return undefined;
  if (!/^[1-9][0-9]*$/.test(v)) throw new UserError(`MCPGAUGE_THREADS must be a positive integer (1 = single thread), got "${v}"`);
  return Number(v);
}

/**
 * Exact token counts of many texts under every tokenizer. With a worker, the first tokenizer is
 * counted on the calling thread and the others in the worker (posted first, so both run at once).
 * The returned promise is pre-handled (no unhandled-rejection crash while the caller is busy);
 * awaiting it still throws the worker's error.
 */
export interface Counter {
  names: TokenizerName[];
  threads: number;
  /** `scope`: texts of one scope share a memo; a new scope drops the previous one */
  countAll(texts: string[], scope: string): Promise<number[][]>;
  /** drop this thread's memo now (it keeps the scope's texts alive) */
  endScope(): void;
}

/** a scope whose first job has at least this many characters may go wholly to an idle worker */
const ALL_REMOTE_MIN_CHARS = 4_000_000;
/** below this many characters a scope is counted on this thread only (see parallelMinChars) */
export const PARALLEL_MIN_CHARS = 2_000_000;

export function makeCounter(
  names: TokenizerName[],
  startWorker: (() => CountWorker) | null,
  minChars: number,
): Counter & { close(): Promise<void> } {
  let worker: CountWorker | null = null;
  let used = false;
  // one memo per tokenizer for the whole run: a line counted once is not tokenized again
  const local = new Map<TokenizerName, ChunkCounter>();
  const counterFor = (n: TokenizerName) => {
    let c = local.get(n);
    if (!c) local.set(n, (c = createChunkCounter(getTokenizer(n))));
    return c;
  };
  let lastScope: string | undefined;
  let allRemote = false;
  let useWorker = false;
  return {
    names,
    get threads() {
      return used ? 2 : 1;
    },
    async close() {
      await worker?.close();
    },
    countAll(texts, scope) {
      if (scope !== lastScope) {
        for (const c of local.values()) c.reset();
        let scopeChars = 0;
        for (const t of texts) scopeChars += t.length;
        useWorker = startWorker !== null && scopeChars >= minChars;
        if (useWorker && !worker) worker = startWorker!();
        if (useWorker) used = true;
        // Balance: this thread also renders and scores, so when the worker has nothing queued
        // at the start of a large scope it counts every tokenizer of that scope (small scopes
        // are not worth loading a second tokenizer, ~20 MB, in the worker). The split only
        // decides where a count runs, never its value. A scope stays on the threads it started
        // on, so its memo is reused.
        allRemote = useWorker && worker !== null && worker.pending() === 0 && scopeChars >= ALL_REMOTE_MIN_CHARS;
      }
      lastScope = scope;
      const remote = (i: number) => useWorker && worker !== null && (i > 0 || allRemote);
      // one message for all remote tokenizers: the texts are copied once
      const remoteNames = names.filter((_, i) => remote(i));
      const job = worker && useWorker && remoteNames.length ? worker.countMany(remoteNames, texts, scope) : Promise.resolve([]);
      job.catch(() => {}); // handled when awaited below; a local error may come first
      const localCounts = names.map((n, i) => {
        if (remote(i)) return null;
        const tk = counterFor(n);
        return texts.map((t) => tk.count(t));
      });
      const all = job.then((rc) => {
        let k = 0;
        return localCounts.map((c) => c ?? rc[k++]);
      });
      all.catch(() => {});
      return all;
    },
    endScope() {
      for (const c of local.values()) c.reset();
      lastScope = undefined;
    },
  };
}
