/**
 * Every retriever mcpgauge can score, as data. Adding one: its file (exporting a
 * `RetrieverEntry`) and one line in RETRIEVERS. The first entry is the default everywhere
 * (`bench --retriever`, `proxy --retriever`, the live stage's offline comparison).
 */
import { UserError } from '../types.ts';
import { bm25fRetriever } from './bm25f.ts';
import { bm25PlainRetriever } from './bm25.ts';
import { bm25fSnowballRetriever } from './bm25f_snowball.ts';
import { bm25fExpandRetriever } from './bm25f_expand.ts';
import { bm25fTunedRetriever } from './bm25f_tuned.ts';
import { hybridRrfRetriever } from './hybrid_rrf.ts';
import { embedRetriever } from './embed.ts';
import { hybridEmbedRetriever } from './hybrid_embed.ts';
import { embedStaticRetriever } from './embed_static.ts';
import { hybridStaticRetriever } from './hybrid_static.ts';
import type { Retriever, RetrieverEntry, RetrieverOptions } from './types.ts';

export const RETRIEVERS: readonly RetrieverEntry[] = Object.freeze([
  bm25fRetriever,
  bm25PlainRetriever,
  bm25fSnowballRetriever,
  bm25fTunedRetriever,
  bm25fExpandRetriever,
  hybridRrfRetriever,
  embedRetriever,
  hybridEmbedRetriever,
  embedStaticRetriever,
  hybridStaticRetriever,
]);

export const DEFAULT_RETRIEVER_ID: string = RETRIEVERS[0].id;

export function retrieverIds(): string[] {
  return RETRIEVERS.map((r) => r.id);
}

/** The entry for `id`; UserError naming the valid ids when unknown. */
export function getRetrieverEntry(id: string): RetrieverEntry {
  const e = RETRIEVERS.find((r) => r.id === id);
  if (!e) throw new UserError(`unknown retriever ${JSON.stringify(id)} (valid: ${retrieverIds().join(', ')})`);
  return e;
}

export function createRetriever(id: string = DEFAULT_RETRIEVER_ID, opts?: RetrieverOptions): Retriever {
  return getRetrieverEntry(id).create(opts);
}

/** Resolve a comma list / array of ids (duplicates dropped, order kept); UserError on unknown or empty. */
export function resolveRetrieverIds(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const id of list) {
    getRetrieverEntry(id);
    if (!out.includes(id)) out.push(id);
  }
  if (out.length === 0) throw new UserError(`no retriever given (valid: ${retrieverIds().join(', ')})`);
  return out;
}
