/**
 * Retriever `embed_static`: dense retrieval that runs offline, on the static embedding model
 * WordLlama l2_supercat_256 (pipeline/models/: fetched once from PyPI into .cache/models/).
 * A doc is embedded as `name + " " + description` (the arm's own text), a query as typed; both
 * are the mean of their token vectors, L2-normalised (models/static_model.ts); a search ranks
 * by dot product (= cosine), ties by tool_id ascending, and never returns a doc scoring <= 0.
 *
 * Incremental: vectors are kept per (model, text) for the texts of the latest build in this
 * process, so a rebuild after a change (the proxy re-indexes when an upstream re-lists) embeds
 * only the new or changed tools, and the grid points of a CV share one set of doc vectors.
 * Without the model in the cache the entry's `unavailable()` says MODEL_NOT_AVAILABLE; the
 * bench and the proxy try one fetch first (`prepare`).
 */
import type { IndexDoc } from '../types.ts';
import { UserError } from '../types.ts';
import { ensureModel, modelPresent } from '../models/fetch.ts';
import { loadStaticModel, type StaticModel } from '../models/static_model.ts';
import { DEFAULT_MODELS_DIR, MODEL_NOT_AVAILABLE, WORDLLAMA } from '../models/wordllama.ts';
import type { SearchHit } from './engine.ts';
import { memoSearch } from './search-memo.ts';
import type { RetrieverEntry, RetrieverOptions, SyncRetriever } from './types.ts';

export type StaticOptions = { modelsDir?: unknown; modelFetch?: unknown };
export type StaticParams = { model: string; dims: number; doc_text: string; query_text: string; similarity: string };

export const STATIC_DOC_TEXT = 'name + " " + description';

export function staticDocText(d: IndexDoc): string {
  return `${d.name} ${d.description}`;
}

function rootOf(opts?: RetrieverOptions): string {
  const r = opts?.modelsDir;
  if (r !== undefined && (typeof r !== 'string' || r === ''))
    throw new UserError(`embed_static: modelsDir must be a folder path, got ${JSON.stringify(r)}`);
  return (r as string | undefined) ?? DEFAULT_MODELS_DIR;
}

/** vectors of the latest build's texts, per model folder (see the file comment) */
const lastBuild = new Map<string, Map<string, Float32Array>>();
let embedded = 0;
let reused = 0;
/**
 * query vectors per model folder: an embedding depends only on the model and the text, and the
 * grid points of a CV (and every retriever with this member) search the same queries
 * (read-only use; bounded, cleared when full)
 */
const queryVectors = new Map<string, Map<string, Float32Array>>();
const QUERY_MEMO_MAX = 20_000;
function queryVector(root: string, m: StaticModel, query: string): Float32Array {
  let memo = queryVectors.get(root);
  if (!memo) queryVectors.set(root, (memo = new Map()));
  let v = memo.get(query);
  if (!v) {
    if (memo.size >= QUERY_MEMO_MAX) memo.clear();
    memo.set(query, (v = m.embed(query)));
  }
  return v;
}

/** texts embedded / reused from the previous build so far in this process (tests, perf) */
export function staticEmbedStats(): { embedded: number; reused: number } {
  return { embedded, reused };
}

export interface StaticRetriever extends SyncRetriever<StaticParams> {
  model(): StaticModel;
}

export function createStaticRetriever(opts: StaticOptions = {}): StaticRetriever {
  const root = rootOf(opts);
  let model: StaticModel | undefined;
  const getModel = () => (model ??= loadStaticModel(WORDLLAMA, root));
  let ids: string[] = [];
  /** doc vectors, row-major in one array (one row per doc): a tight loop for the dot products */
  let matrix = new Float32Array(0);
  let built = false;
  let builtDocs: IndexDoc[] = [];
  // a ranking depends on the model (its folder), the docs, the query and k (search-memo.ts)
  const memoKey = `embed_static\u0000${root}`;
  return {
    meta: {
      id: 'embed_static',
      analyzer: `static-embeddings:${WORDLLAMA.id}`,
      params: {
        model: `${WORDLLAMA.project}==${WORDLLAMA.version} ${WORDLLAMA.weights.member}`,
        dims: WORDLLAMA.tensor.shape[1],
        doc_text: STATIC_DOC_TEXT,
        query_text: 'as typed',
        similarity: 'cosine (mean of token vectors, L2-normalised)',
      },
    },
    model: getModel,
    build(docs) {
      if (!Array.isArray(docs)) throw new UserError('embed_static: build() expects an array of IndexDoc');
      const seen = new Set<string>();
      for (const d of docs) {
        if (!d || typeof d.tool_id !== 'string' || d.tool_id === '') throw new UserError('embed_static: a doc has no tool_id');
        if (seen.has(d.tool_id)) throw new UserError(`embed_static: duplicate tool_id "${d.tool_id}" in index docs`);
        seen.add(d.tool_id);
      }
      const m = getModel();
      const prev = lastBuild.get(root) ?? new Map<string, Float32Array>();
      const next = new Map<string, Float32Array>();
      const vecs = docs.map((d) => {
        const text = staticDocText(d);
        let v = next.get(text) ?? prev.get(text);
        if (v) reused++;
        else {
          v = m.embed(text);
          embedded++;
        }
        next.set(text, v);
        return v;
      });
      matrix = new Float32Array(vecs.length * m.dims);
      vecs.forEach((v, i) => matrix.set(v, i * m.dims));
      // the kept vectors become views of the matrix rows, so each vector is stored once
      docs.forEach((d, i) => next.set(staticDocText(d), matrix.subarray(i * m.dims, (i + 1) * m.dims)));
      lastBuild.set(root, next);
      ids = docs.map((d) => d.tool_id);
      builtDocs = docs;
      built = true;
    },
    search(query, k) {
      if (!built) throw new Error('embed_static: search() called before build()');
      if (typeof query !== 'string') throw new UserError(`embed_static: query must be a string, got ${typeof query}`);
      return memoSearch(builtDocs, memoKey, query, k, () => rank(query, Math.floor(k)));
    },
  };

  /** the top `limit` docs by cosine, best first (ties: tool_id ascending) */
  function rank(query: string, limit: number): SearchHit[] {
    if (!(limit > 0) || ids.length === 0) return [];
    const q = queryVector(root, getModel(), query);
    // bounded top-k: `top` stays sorted best first, at most `limit` long
    const top: SearchHit[] = [];
    const worse = (a: SearchHit, b: SearchHit) => a.score < b.score || (a.score === b.score && a.tool_id > b.tool_id);
    const dims = q.length;
    for (let d = 0, off = 0; d < ids.length; d++, off += dims) {
      let s = 0;
      for (let i = 0; i < dims; i++) s += matrix[off + i] * q[i];
      if (!(s > 0)) continue;
      const h = { tool_id: ids[d], score: s };
      if (top.length === limit && !worse(top[limit - 1], h)) continue;
      let i = top.length === limit ? limit - 1 : top.length;
      while (i > 0 && worse(top[i - 1], h)) {
        top[i] = top[i - 1];
        i--;
      }
      top[i] = h;
    }
    return top;
  }
}

export const embedStaticRetriever: RetrieverEntry = {
  id: 'embed_static',
  label: 'Static embeddings',
  description: `dense retrieval offline: cosine over mean token vectors of the static model ${WORDLLAMA.id} (PyPI ${WORDLLAMA.project}==${WORDLLAMA.version}; mcpgauge models fetch)`,
  create: (opts) => createStaticRetriever(opts as StaticOptions),
  unavailable: (opts) => (modelPresent(WORDLLAMA, rootOf(opts)) ? undefined : MODEL_NOT_AVAILABLE),
  // option modelFetch: false = never download (only the cache counts)
  prepare: async (opts, log) => {
    if (opts?.modelFetch !== false) await ensureModel({ root: rootOf(opts), log });
  },
};
