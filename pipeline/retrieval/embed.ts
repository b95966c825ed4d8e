/**
 * Retriever `embed`: dense retrieval through an embeddings endpoint the user runs
 * (embed_client.ts: OpenAI-compatible /v1/embeddings or Ollama /api/embed, batched, disk cache
 * keyed by (model, sha256(text))). A doc is embedded as `<name with _ and - as spaces>:
 * <description>`; the query as typed. Vectors are L2-normalized; a search returns the top k by
 * cosine similarity (ties by tool_id ascending), docs with cosine <= 0 are not returned.
 * Without `url` (`--embed-url`) the retriever is not available: the entry's `unavailable()`
 * says `skipped: no --embed-url`.
 */
import { UserError } from '../types.ts';
import type { IndexDoc } from '../types.ts';
import { createEmbedClient, DEFAULT_EMBED_BATCH, type EmbedClient } from './embed_client.ts';
import type { SearchHit } from './engine.ts';
import type { RetrieverEntry } from './types.ts';

export const NO_EMBED_URL = 'skipped: no --embed-url';

export type EmbedOptions = { url?: unknown; model?: unknown; batch?: unknown; cacheDir?: unknown; timeoutMs?: unknown };
export type EmbedParams = { api: string; model: string; batch: number; doc_text: string; similarity: string };

export function docText(d: IndexDoc): string {
  return `${d.name.replace(/[_-]+/g, ' ')}: ${d.description}`;
}

function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s);
  const out = new Float32Array(v.length);
  if (n > 0) for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

export interface EmbedRetriever {
  meta: { id: string; analyzer: string; params: EmbedParams };
  build(docs: IndexDoc[]): Promise<void>;
  search(query: string, k: number): Promise<SearchHit[]>;
  client: EmbedClient;
}

export function createEmbedRetriever(opts: EmbedOptions = {}): EmbedRetriever {
  if (typeof opts.url !== 'string' || opts.url === '') throw new UserError(`embed: ${NO_EMBED_URL}`);
  if (typeof opts.model !== 'string' || opts.model === '') throw new UserError('embed: --embed-model is required with --embed-url');
  const client = createEmbedClient({
    url: opts.url,
    model: opts.model,
    batch: opts.batch as number | undefined,
    cacheDir: opts.cacheDir as string | undefined,
    timeoutMs: opts.timeoutMs as number | undefined,
  });
  let ids: string[] = [];
  let vecs: Float32Array[] = [];
  let built = false;
  return {
    meta: {
      id: 'embed',
      analyzer: `embeddings:${client.api}:${opts.model}`,
      params: {
        api: client.api,
        model: opts.model,
        batch: (opts.batch as number) ?? DEFAULT_EMBED_BATCH,
        doc_text: 'name (_ and - as spaces) + ": " + description',
        similarity: 'cosine',
      },
    },
    client,
    async build(docs) {
      if (!Array.isArray(docs)) throw new UserError('embed: build() expects an array of IndexDoc');
      const seen = new Set<string>();
      for (const d of docs) {
        if (!d || typeof d.tool_id !== 'string' || d.tool_id === '') throw new UserError('embed: a doc has no tool_id');
        if (seen.has(d.tool_id)) throw new UserError(`embed: duplicate tool_id "${d.tool_id}" in index docs`);
        seen.add(d.tool_id);
      }
      const vs = await client.embed(docs.map(docText));
      ids = docs.map((d) => d.tool_id);
      vecs = vs.map(normalize);
      built = true;
    },
    async search(query, k) {
      if (!built) throw new Error('embed: search() called before build()');
      if (typeof query !== 'string') throw new UserError(`embed: query must be a string, got ${typeof query}`);
      const limit = Math.floor(k);
      if (!(limit > 0) || ids.length === 0) return [];
      const [qv] = (await client.embed([query])).map(normalize);
      const hits: SearchHit[] = [];
      for (let d = 0; d < vecs.length; d++) {
        const v = vecs[d];
        if (v.length !== qv.length) throw new UserError(`embed: query vector has ${qv.length} dimensions, doc vectors ${v.length}`);
        let s = 0;
        for (let i = 0; i < v.length; i++) s += v[i] * qv[i];
        if (s > 0) hits.push({ tool_id: ids[d], score: s });
      }
      hits.sort((a, b) => b.score - a.score || (a.tool_id < b.tool_id ? -1 : a.tool_id > b.tool_id ? 1 : 0));
      return hits.slice(0, limit);
    },
  };
}

export const embedRetriever: RetrieverEntry = {
  id: 'embed',
  label: 'Embeddings',
  description: 'dense retrieval: cosine top-k over vectors from --embed-url (OpenAI-compatible /v1/embeddings or Ollama /api/embed)',
  create: (opts) => createEmbedRetriever(opts as EmbedOptions),
  unavailable: (opts) => (typeof opts?.url === 'string' && opts.url !== '' ? undefined : NO_EMBED_URL),
};
