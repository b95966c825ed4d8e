/**
 * The retriever seam: what the offline stage, the live stage and the reference proxy need from
 * a search index over `IndexDoc`s. One retriever = one file exporting a factory, listed once in
 * `registry.ts` (see docs/architecture.md, "Add a retriever").
 */
import type { IndexDoc, JsonValue } from '../types.ts';

/** Static description of a retriever, copied into every retrieval row of the report. */
export interface RetrieverMeta<P = { [k: string]: JsonValue }> {
  /** registry id, ^[a-z0-9_]+$, e.g. "bm25f" */
  id: string;
  /** analyzer id (tokenization + stemming), e.g. "mcpgauge-analyzer-v1" */
  analyzer: string;
  /** resolved parameters (defaults filled in), JSON-serializable */
  params: P;
}

export interface SearchHit {
  tool_id: string;
  score: number;
}

/**
 * A retriever. Lexical ones are synchronous; one that calls a service (`embed`) returns
 * promises, so callers always `await` build() and search().
 */
export interface Retriever<P = { [k: string]: JsonValue }> {
  meta: RetrieverMeta<P>;
  /** (Re)build the index from scratch. Throws UserError on a duplicate or malformed doc. */
  build(docs: IndexDoc[]): void | Promise<void>;
  /** Top k hits, score desc then tool_id asc; never returns zero-score docs. */
  search(query: string, k: number): SearchHit[] | Promise<SearchHit[]>;
}

/** A retriever that answers synchronously (every lexical one). */
export interface SyncRetriever<P = { [k: string]: JsonValue }> extends Retriever<P> {
  build(docs: IndexDoc[]): void;
  search(query: string, k: number): SearchHit[];
}

/** Free-form retriever options from the CLI (`--k1`, `--b`, ...); each retriever validates its own. */
export type RetrieverOptions = { [k: string]: unknown };

/** One registry entry: static id/description plus a factory. */
export interface RetrieverEntry {
  id: string;
  /** short name for prose (notes, tile labels), e.g. "BM25" */
  label: string;
  description: string;
  /** builds an empty retriever; throws UserError on bad options */
  create(opts?: RetrieverOptions): Retriever;
  /**
   * why this retriever cannot run with these options (e.g. `skipped: no --embed-url`), or
   * undefined when it can; a scored row then says `not_scorable: <reason>`
   */
  unavailable?(opts?: RetrieverOptions): string | undefined;
  /**
   * one-time set-up before `unavailable()` is asked, e.g. fetching a model into the cache
   * (embed_static); must not throw: what it could not do, `unavailable()` then says
   */
  prepare?(opts: RetrieverOptions | undefined, log: (line: string) => void): Promise<void>;
  /**
   * parameters chosen from data: every grid point is an options object merged over the user's
   * options; a scored row is cross-validated over the golden set (cv.ts), never scored on the
   * queries its parameters were chosen on. The first point should be the defaults.
   */
  tuning?: { grid: readonly RetrieverOptions[]; describe: string };
}
