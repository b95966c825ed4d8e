/**
 * BM25F retriever over `IndexDoc`s (the offline stage and the reference proxy both use this
 * exact code). Fields and their text, analyzed by `analyzer.ts`:
 *
 *   name        the bare tool name as ONE joined token ("read_text_file" -> readtextfil)
 *   name_parts  the tool name's identifier parts (read, text, fil)
 *   server      the server name (parts + joined form)
 *   description the tool description
 *   params      the arm-supplied parameter text (JSON Schema vocabulary dropped)
 *
 * Scoring (BM25F with one saturation over the weighted, per-field length-normalized tf):
 *
 *   tf~(t,d)  = sum_f  w_f * tf(t,d,f) / (1 - b + b * len_f(d) / avglen_f)
 *   idf(t)    = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
 *   score(d)  = sum_{t in q}  qtf(t) * idf(t) * tf~(t,d) / (k1 + tf~(t,d))
 *
 * len_f(d) is the number of analyzed tokens of field f in d, avglen_f its mean over all docs
 * (a field empty in every doc has a normalizer of 1), df(t) counts docs containing t in any
 * field, qtf(t) is how often the analyzed query holds t. Results: score descending, ties by
 * tool_id ascending (UTF-16 code unit order), docs scoring 0 are not returned.
 *
 * Layout: one pass analyzes every doc into (term, field, count) triples; a second pass folds
 * them into a CSR inverted index (Int32Array doc ids, Float64Array precomputed
 * tf~/(k1+tf~) impacts per posting); a search adds idf * impact into a reused Float64Array
 * accumulator and selects the top k with a bounded heap.
 */
import type { IndexDoc } from '../types.ts';
import { UserError } from '../types.ts';
import { ANALYZER_ID, analyze, analyzeJoined, analyzeParts } from './analyzer.ts';
import type { Retriever, RetrieverEntry, SearchHit } from './types.ts';

export type { Retriever, RetrieverMeta, SearchHit } from './types.ts';

export const FIELD_NAMES = ['name', 'name_parts', 'server', 'description', 'params'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
export type FieldWeights = Record<FieldName, number>;

/** A type alias (not an interface) so it is assignable to JSON-object types in the report. */
export type Bm25Params = {
  k1: number;
  b: number;
  weights: FieldWeights;
};

/** Options for `createBm25Retriever`: any subset; `weights` may be partial too. */
export type Bm25Options = Partial<Omit<Bm25Params, 'weights'>> & { weights?: Partial<FieldWeights> };

export const DEFAULT_BM25_PARAMS: Readonly<Bm25Params> = Object.freeze({
  k1: 1.2,
  b: 0.75,
  weights: Object.freeze({ name: 3, name_parts: 2, server: 0.5, description: 1, params: 0.5 }),
});

export interface IndexStats {
  docs: number;
  terms: number;
  postings: number;
  avg_field_length: Record<FieldName, number>;
}

/** The BM25F retriever also reports index statistics. */
export interface Bm25Retriever extends Retriever<Bm25Params> {
  stats(): IndexStats;
}

function fieldTokens(doc: IndexDoc, f: FieldName): string[] {
  switch (f) {
    case 'name':
      return analyzeJoined(doc.name);
    case 'name_parts':
      return analyzeParts(doc.name);
    case 'server':
      return analyze(doc.server);
    case 'description':
      return analyze(doc.description);
    case 'params':
      return analyze(doc.params, 'params');
  }
}

function resolveParams(opts: Bm25Options = {}): Bm25Params {
  const p: Bm25Params = {
    k1: opts.k1 ?? DEFAULT_BM25_PARAMS.k1,
    b: opts.b ?? DEFAULT_BM25_PARAMS.b,
    weights: { ...DEFAULT_BM25_PARAMS.weights, ...(opts.weights ?? {}) },
  };
  if (typeof p.k1 !== 'number' || !Number.isFinite(p.k1) || p.k1 < 0) throw new UserError(`bm25: k1 must be a finite number >= 0, got ${String(p.k1)}`);
  if (typeof p.b !== 'number' || !Number.isFinite(p.b) || p.b < 0 || p.b > 1) throw new UserError(`bm25: b must be a number in [0, 1], got ${String(p.b)}`);
  for (const k of Object.keys(p.weights)) {
    if (!(FIELD_NAMES as readonly string[]).includes(k)) throw new UserError(`bm25: unknown field weight "${k}" (fields: ${FIELD_NAMES.join(', ')})`);
  }
  for (const f of FIELD_NAMES) {
    const w = p.weights[f];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw new UserError(`bm25: weights.${f} must be a finite number >= 0, got ${String(w)}`);
  }
  if (FIELD_NAMES.every((f) => p.weights[f] === 0)) throw new UserError('bm25: at least one field weight must be > 0');
  return p;
}

export function createBm25Retriever(opts?: Bm25Options): Bm25Retriever {
  const params = resolveParams(opts);
  const weights = FIELD_NAMES.map((f) => params.weights[f]);
  const nf = FIELD_NAMES.length;

  let ids: string[] = [];
  let idRank = new Int32Array(0); // position of each doc's tool_id in ascending order
  let vocab = new Map<string, number>();
  let df = new Int32Array(0);
  let offsets = new Int32Array(1);
  let postDocs = new Int32Array(0);
  let postImpact = new Float64Array(0);
  let acc = new Float64Array(0);
  let avgLen: number[] = FIELD_NAMES.map(() => 0);
  let built = false;

  function build(docs: IndexDoc[]): void {
    if (!Array.isArray(docs)) throw new UserError('bm25: build() expects an array of IndexDoc');
    const n = docs.length;
    const seen = new Set<string>();
    const newIds: string[] = new Array(n);
    for (let d = 0; d < n; d++) {
      const doc = docs[d];
      if (!doc || typeof doc.tool_id !== 'string' || doc.tool_id === '') throw new UserError(`bm25: doc #${d} has no tool_id`);
      for (const f of ['server', 'name', 'description', 'params'] as const) {
        if (typeof doc[f] !== 'string') throw new UserError(`bm25: doc ${doc.tool_id}: field "${f}" must be a string, got ${typeof doc[f]}`);
      }
      if (seen.has(doc.tool_id)) throw new UserError(`bm25: duplicate tool_id "${doc.tool_id}" in index docs`);
      seen.add(doc.tool_id);
      newIds[d] = doc.tool_id;
    }

    // Pass 1: analyze; record (term, field, count) triples per doc and field lengths.
    const v = new Map<string, number>();
    const dfList: number[] = [];
    const lastDoc: number[] = [];
    const lens = FIELD_NAMES.map(() => new Int32Array(n));
    const tTerm: number[] = [];
    const tField: number[] = [];
    const tCount: number[] = [];
    const docStart = new Int32Array(n + 1);
    const counts = new Map<number, number>();
    for (let d = 0; d < n; d++) {
      docStart[d] = tTerm.length;
      for (let f = 0; f < nf; f++) {
        const toks = fieldTokens(docs[d], FIELD_NAMES[f]);
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

    const avg = FIELD_NAMES.map((_, f) => {
      let s = 0;
      for (let d = 0; d < n; d++) s += lens[f][d];
      return n ? s / n : 0;
    });
    const T = v.size;
    const newDf = Int32Array.from(dfList);
    const newOffsets = new Int32Array(T + 1);
    for (let t = 0; t < T; t++) newOffsets[t + 1] = newOffsets[t] + newDf[t];
    const P = newOffsets[T];
    const newDocs = new Int32Array(P);
    const newImpact = new Float64Array(P);
    const fill = newOffsets.slice(0, T);

    // Pass 2: fold fields into tf~ per (doc, term), write postings in doc order.
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
    built = true;
  }

  function search(query: string, k: number): SearchHit[] {
    if (!built) throw new Error('bm25: search() called before build()');
    if (typeof query !== 'string') throw new UserError(`bm25: query must be a string, got ${typeof query}`);
    if (typeof k !== 'number' || Number.isNaN(k)) throw new UserError(`bm25: k must be a number, got ${String(k)}`);
    const limit = Math.floor(k);
    if (limit <= 0 || ids.length === 0) return [];
    const qtf = new Map<number, number>();
    for (const tok of analyze(query)) {
      const t = vocab.get(tok);
      if (t !== undefined) qtf.set(t, (qtf.get(t) ?? 0) + 1);
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
    // Bounded min-heap of the best `limit` docs; root = worst kept.
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
    const out = heap.map((d) => ({ tool_id: ids[d], score: acc[d] }));
    for (const d of touched) acc[d] = 0;
    return out;
  }

  function stats(): IndexStats {
    const avg_field_length = {} as Record<FieldName, number>;
    FIELD_NAMES.forEach((f, i) => (avg_field_length[f] = avgLen[i]));
    return { docs: ids.length, terms: vocab.size, postings: postDocs.length, avg_field_length };
  }

  return {
    meta: { id: 'bm25f', analyzer: ANALYZER_ID, params },
    build,
    search,
    stats,
  };
}

/** The registry entry (pipeline/retrieval/registry.ts). Options: k1, b, weights (see Bm25Options). */
export const bm25fRetriever: RetrieverEntry = {
  id: 'bm25f',
  label: 'BM25',
  description: 'BM25F over name, name parts, server, description and parameter text (one saturation)',
  create: (opts) => createBm25Retriever(opts as Bm25Options | undefined),
};
