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

export interface Retriever<P = { [k: string]: JsonValue }> {
  meta: RetrieverMeta<P>;
  /** (Re)build the index from scratch. Throws UserError on a duplicate or malformed doc. */
  build(docs: IndexDoc[]): void;
  /** Top k hits, score desc then tool_id asc; never returns zero-score docs. */
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
}
