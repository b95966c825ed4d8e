/**
 * The BM25F scoring engine shared by every lexical retriever (`bm25`, `bm25f`, `bm25f_snowball`,
 * `bm25f_expand`): a list of fields, each with a weight and a tokenizer, and a query-term
 * function. The formula (see bm25f.ts for the bm25f fields):
 *
 *   tf~(t,d)  = sum_f  w_f * tf(t,d,f) / (1 - b + b * len_f(d) / avglen_f)
 *   idf(t)    = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
 *   score(d)  = sum_{t in q}  qw(t) * idf(t) * tf~(t,d) / (k1 + tf~(t,d))
 *
 * qw(t) is the query weight of t: how often the analyzed query holds t (a retriever that
 * expands the query gives added terms a fractional weight). len_f(d) is the number of tokens of
 * field f in d, avglen_f its mean over all docs (a field empty in every doc has a normalizer of
 * 1), df(t) counts docs containing t in any field. Results: score descending, ties by tool_id
 * ascending (UTF-16 code unit order), docs scoring 0 are not returned.
 *
 * Layout: one pass tokenizes every doc into (term, field, count) triples; a second pass folds
 * them into a CSR inverted index (Int32Array doc ids, Float64Array precomputed tf~/(k1+tf~)
 * impacts per posting); a search adds qw * idf * impact into a reused Float64Array accumulator
 * (terms in vocabulary-id order, a fixed summation order) and selects the top k with a bounded
 * heap.
 */
import type { IndexDoc } from '../types.ts';
import { UserError } from '../types.ts';
import { memoSearch } from './search-memo.ts';

export interface FieldSpec {
  name: string;
  weight: number;
  tokens(doc: IndexDoc): string[];
  /**
   * names what `tokens` computes (same key = same tokens for every doc): when every field has
   * one, pass 1 (analysis, term ids, df, field lengths; independent of k1, b and the weights)
   * is kept per docs array and shared by engines with the same keys, e.g. a CV grid's points
   */
  key?: string;
}

export interface EngineSpec {
  /** name used in error messages, e.g. `bm25f` */
  label: string;
  k1: number;
  b: number;
  fields: readonly FieldSpec[];
  /** analyzed query terms with their weights (term frequency for a plain query) */
  queryTerms(query: string): Map<string, number>;
  /**
   * names what `queryTerms` computes (same key = same terms for every query): with it and a
   * `key` on every field, `search` is memoised inside a cross-validation (search-memo.ts)
   */
  queryKey?: string;
}

export interface SearchHit {
  tool_id: string;
  score: number;
}

export interface EngineStats {
  docs: number;
  terms: number;
  postings: number;
  avg_field_length: Record<string, number>;
}

export interface Bm25Engine {
  /** (Re)build the index from scratch. Throws UserError on a duplicate or malformed doc. */
  build(docs: IndexDoc[]): void;
  /** Top k hits, score desc then tool_id asc; never returns zero-score docs. */
  search(query: string, k: number): SearchHit[];
  /** Top k hits for already-analyzed weighted terms (the same scoring as `search`). */
  searchTerms(terms: Map<string, number>, k: number): SearchHit[];
  stats(): EngineStats;
  /** true when `term` occurs in some indexed doc */
  hasTerm(term: string): boolean;
}

/** Counts of each token: the query-term weights of a plain (unexpanded) query. */
export function termCounts(tokens: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** The weight- and saturation-independent result of pass 1 over one docs array. */
interface Pass1 {
  /** the doc objects analyzed, to check the array was not changed in place since */
  docs: IndexDoc[];
  vocab: Map<string, number>;
  df: Int32Array;
  lens: Int32Array[];
  tTerm: Int32Array;
  tField: Int32Array;
  tCount: Int32Array;
  docStart: Int32Array;
}
const pass1Memo = new WeakMap<IndexDoc[], Map<string, Pass1>>();

function analyzeDocs(docs: IndexDoc[], fields: readonly FieldSpec[]): Pass1 {
  const n = docs.length;
  const nf = fields.length;
  const v = new Map<string, number>();
  const dfList: number[] = [];
  const lastDoc: number[] = [];
  const lens = fields.map(() => new Int32Array(n));
  const tTerm: number[] = [];
  const tField: number[] = [];
  const tCount: number[] = [];
  const docStart = new Int32Array(n + 1);
  const counts = new Map<number, number>();
  for (let d = 0; d < n; d++) {
    docStart[d] = tTerm.length;
    for (let f = 0; f < nf; f++) {
      const toks = fields[f].tokens(docs[d]);
      lens[f][d] = toks.length;
      counts.clear();
      for (const tok of toks) {
        let id = v.get(tok);
        if (id === undefined) {
          id = v.size;
          v.set(tok, id);
          dfList.push(0);
          lastDoc.push(-1);
        }
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      for (const [id, c] of counts) {
        tTerm.push(id);
        tField.push(f);
        tCount.push(c);
        if (lastDoc[id] !== d) {
          lastDoc[id] = d;
          dfList[id]++;
        }
      }
    }
  }
  docStart[n] = tTerm.length;
  return {
    docs: docs.slice(),
    vocab: v,
    df: Int32Array.from(dfList),
    lens,
    tTerm: Int32Array.from(tTerm),
    tField: Int32Array.from(tField),
    tCount: Int32Array.from(tCount),
    docStart,
  };
}

/** pass 1, shared when every field names its tokens (FieldSpec.key) and the docs array is unchanged */
function pass1(docs: IndexDoc[], fields: readonly FieldSpec[]): Pass1 {
  if (!fields.every((f) => typeof f.key === 'string')) return analyzeDocs(docs, fields);
  const key = fields.map((f) => f.key).join('\u0000');
  let byKey = pass1Memo.get(docs);
  const hit = byKey?.get(key);
  if (hit && hit.docs.length === docs.length && hit.docs.every((d, i) => d === docs[i])) return hit;
  const got = analyzeDocs(docs, fields);
  if (!byKey) pass1Memo.set(docs, (byKey = new Map()));
  byKey.set(key, got);
  return got;
}

/** the docs' tool ids, each doc checked (a tool_id, string fields, no duplicate) */
function docIds(docs: IndexDoc[], label: string): string[] {
  const n = docs.length;
  const seen = new Set<string>();
  const newIds: string[] = new Array(n);
  for (let d = 0; d < n; d++) {
    const doc = docs[d];
    if (!doc || typeof doc.tool_id !== 'string' || doc.tool_id === '') throw new UserError(`${label}: doc #${d} has no tool_id`);
    for (const f of ['server', 'name', 'description', 'params'] as const) {
      if (typeof doc[f] !== 'string')
        throw new UserError(`${label}: doc ${doc.tool_id}: field "${f}" must be a string, got ${typeof doc[f]}`);
    }
    if (seen.has(doc.tool_id)) throw new UserError(`${label}: duplicate tool_id "${doc.tool_id}" in index docs`);
    seen.add(doc.tool_id);
    newIds[d] = doc.tool_id;
  }
  return newIds;
}

/** pass 2: fold fields into tf~ per (doc, term), write postings in doc order (impact = tf~ / (k1 + tf~)) */
function pass2(p1: Pass1, n: number, weights: readonly number[], params: { k1: number; b: number }) {
  const { lens, tTerm, tField, tCount, docStart } = p1;
  const nf = weights.length;
  const T = p1.vocab.size;
  const newDf = p1.df;
  const avg = weights.map((_, f) => {
    let s = 0;
    for (let d = 0; d < n; d++) s += lens[f][d];
    return n ? s / n : 0;
  });
  const newOffsets = new Int32Array(T + 1);
  for (let t = 0; t < T; t++) newOffsets[t + 1] = newOffsets[t] + newDf[t];
  const P = newOffsets[T];
  const newDocs = new Int32Array(P);
  const newImpact = new Float64Array(P);
  const fill = newOffsets.slice(0, T);

  const tfTilde = new Float64Array(T);
  const touched: number[] = [];
  const mark = new Int32Array(T).fill(-1);
  const norm = new Float64Array(nf);
  for (let d = 0; d < n; d++) {
    for (let f = 0; f < nf; f++) norm[f] = avg[f] > 0 ? 1 - params.b + (params.b * lens[f][d]) / avg[f] : 1;
    for (let i = docStart[d]; i < docStart[d + 1]; i++) {
      const t = tTerm[i];
      const f = tField[i];
      if (mark[t] !== d) {
        mark[t] = d;
        touched.push(t);
      }
      tfTilde[t] += (weights[f] * tCount[i]) / norm[f];
    }
    for (const t of touched) {
      const tt = tfTilde[t];
      const p = fill[t]++;
      newDocs[p] = d;
      newImpact[p] = tt > 0 ? tt / (params.k1 + tt) : 0;
      tfTilde[t] = 0;
    }
    touched.length = 0;
  }
  return { avg, newOffsets, newDocs, newImpact };
}

/** the best `limit` docs by score (ties: ascending tool_id), best first: a bounded min-heap, root = worst kept */
function bestDocs(touched: readonly number[], acc: Float64Array, idRank: Int32Array, limit: number): number[] {
  const worse = (a: number, b: number) => acc[a] < acc[b] || (acc[a] === acc[b] && idRank[a] > idRank[b]);
  const heap: number[] = [];
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l], heap[m])) m = l;
      if (r < heap.length && worse(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (const d of touched) {
    if (!(acc[d] > 0)) continue;
    if (heap.length < limit) {
      heap.push(d);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i], heap[parent])) break;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
    } else if (worse(heap[0], d)) {
      heap[0] = d;
      siftDown(0);
    }
  }
  heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  return heap;
}

export function createBm25Engine(spec: EngineSpec): Bm25Engine {
  const label = spec.label;
  const params = spec;
  const fields = spec.fields;
  const weights = fields.map((f) => f.weight);
  // everything a ranking depends on besides docs, query and k (undefined: not memoised)
  const memoKey =
    spec.queryKey !== undefined && fields.every((f) => typeof f.key === 'string')
      ? `bm25\u0000${spec.k1}\u0000${spec.b}\u0000${fields.map((f) => `${f.key}=${f.weight}`).join('\u0000')}\u0000${spec.queryKey}`
      : undefined;
  let builtDocs: IndexDoc[] = [];

  let ids: string[] = [];
  let idRank = new Int32Array(0); // position of each doc's tool_id in ascending order
  let vocab = new Map<string, number>();
  let df: Int32Array = new Int32Array(0);
  let offsets = new Int32Array(1);
  let postDocs = new Int32Array(0);
  let postImpact = new Float64Array(0);
  let acc = new Float64Array(0);
  let avgLen: number[] = fields.map(() => 0);
  let built = false;

  function build(docs: IndexDoc[]): void {
    if (!Array.isArray(docs)) throw new UserError(`${label}: build() expects an array of IndexDoc`);
    const n = docs.length;
    const newIds = docIds(docs, label);

    // Pass 1: analyze; record (term, field, count) triples per doc and field lengths.
    const p1 = pass1(docs, fields);
    const { vocab: v, df: newDf } = p1;

    const { avg, newOffsets, newDocs, newImpact } = pass2(p1, n, weights, params);

    const order = newIds.map((_, i) => i).sort((a, b) => (newIds[a] < newIds[b] ? -1 : newIds[a] > newIds[b] ? 1 : 0));
    const rank = new Int32Array(n);
    order.forEach((d, r) => (rank[d] = r));

    ids = newIds;
    idRank = rank;
    vocab = v;
    df = newDf;
    offsets = newOffsets;
    postDocs = newDocs;
    postImpact = newImpact;
    acc = new Float64Array(n);
    avgLen = avg;
    builtDocs = docs;
    built = true;
  }

  function search(query: string, k: number): SearchHit[] {
    if (typeof query !== 'string') throw new UserError(`${label}: query must be a string, got ${typeof query}`);
    if (!built) throw new Error(`${label}: search() called before build()`);
    return memoSearch(builtDocs, memoKey, query, k, () => searchTerms(spec.queryTerms(query), k));
  }

  function searchTerms(query: Map<string, number>, k: number): SearchHit[] {
    if (!built) throw new Error(`${label}: search() called before build()`);
    if (typeof k !== 'number' || Number.isNaN(k)) throw new UserError(`${label}: k must be a number, got ${String(k)}`);
    const limit = Math.floor(k);
    if (limit <= 0 || ids.length === 0) return [];
    const qtf = new Map<number, number>();
    for (const [tok, w] of query) {
      const t = vocab.get(tok);
      if (t !== undefined && w > 0) qtf.set(t, (qtf.get(t) ?? 0) + w);
    }
    if (qtf.size === 0) return [];
    const N = ids.length;
    const terms = [...qtf.keys()].sort((a, b) => a - b); // fixed summation order
    const touched: number[] = [];
    for (const t of terms) {
      const dft = df[t];
      const w = qtf.get(t)! * Math.log(1 + (N - dft + 0.5) / (dft + 0.5));
      for (let p = offsets[t]; p < offsets[t + 1]; p++) {
        const d = postDocs[p];
        const inc = w * postImpact[p];
        if (inc === 0) continue;
        if (acc[d] === 0) touched.push(d);
        acc[d] += inc;
      }
    }
    const heap = bestDocs(touched, acc, idRank, limit);
    const out = heap.map((d) => ({ tool_id: ids[d], score: acc[d] }));
    for (const d of touched) acc[d] = 0;
    return out;
  }

  function stats(): EngineStats {
    const avg_field_length: Record<string, number> = {};
    fields.forEach((f, i) => (avg_field_length[f.name] = avgLen[i]));
    return { docs: ids.length, terms: vocab.size, postings: postDocs.length, avg_field_length };
  }

  return { build, search, searchTerms, stats, hasTerm: (t) => vocab.has(t) };
}
