/**
 * Retriever `hybrid_rrf`: reciprocal-rank fusion (rrf.ts) of two or more lexical retrievers,
 * each built on the same docs and searched RRF_DEPTH deep. Options: `members` (ids from
 * LEXICAL_MEMBERS, default bm25f_snowball + bm25f_expand with document expansion), `k` (RRF
 * constant, default 60 as in the original paper). In a scored row `k` and `members` are chosen
 * by 5-fold cross-validation over the golden set (grid RRF_GRID).
 */
import { UserError } from '../types.ts';
import type { JsonValue } from '../types.ts';
import { createPlainBm25Retriever } from './bm25.ts';
import { createBm25Retriever } from './bm25f.ts';
import { createSnowballRetriever } from './bm25f_snowball.ts';
import { createExpandRetriever } from './bm25f_expand.ts';
import { checkRrfK, fuseRankings, RRF_DEPTH } from './rrf.ts';
import type { RetrieverEntry, SyncRetriever } from './types.ts';

type Lexical = SyncRetriever<{ [k: string]: JsonValue }>;

/** Members a hybrid_rrf can fuse (the lexical retrievers, with the options a member gets). */
export const LEXICAL_MEMBERS: Record<string, () => Lexical> = {
  bm25: () => createPlainBm25Retriever(),
  bm25f: () => createBm25Retriever(),
  bm25f_snowball: () => createSnowballRetriever(),
  bm25f_expand: () => createExpandRetriever({ mode: 'docs', weight: 0.3, senses: 1 }),
};

export const DEFAULT_RRF = { members: ['bm25f_snowball', 'bm25f_expand'], k: 60 };

/** The cross-validation grid (first entry = the defaults, preferred on a tie). */
export const RRF_GRID: { members: string[]; k: number }[] = (() => {
  const sets = [DEFAULT_RRF.members, ['bm25f', 'bm25f_expand'], ['bm25', 'bm25f_snowball', 'bm25f_expand']];
  const out: { members: string[]; k: number }[] = [];
  for (const members of sets) for (const k of [60, 20, 5]) out.push({ members, k });
  return out;
})();

export type RrfParams = { members: string[]; k: number; depth: number; member_params: { [id: string]: JsonValue } };

export function createRrfRetriever(opts: { members?: unknown; k?: unknown } = {}): SyncRetriever<RrfParams> {
  const members = opts.members ?? DEFAULT_RRF.members;
  const k = checkRrfK(opts.k ?? DEFAULT_RRF.k, 'hybrid_rrf');
  if (!Array.isArray(members) || members.length < 2 || new Set(members).size !== members.length) {
    throw new UserError(`hybrid_rrf: members must list two or more distinct retrievers, got ${JSON.stringify(members)}`);
  }
  for (const m of members)
    if (!(m in LEXICAL_MEMBERS))
      throw new UserError(`hybrid_rrf: unknown member ${JSON.stringify(m)} (valid: ${Object.keys(LEXICAL_MEMBERS).join(', ')})`);
  const rs = (members as string[]).map((m) => LEXICAL_MEMBERS[m]());
  const params: RrfParams = {
    members: members as string[],
    k,
    depth: RRF_DEPTH,
    member_params: Object.fromEntries(rs.map((r) => [r.meta.id, JSON.parse(JSON.stringify(r.meta.params))])),
  };
  return {
    meta: { id: 'hybrid_rrf', analyzer: rs.map((r) => r.meta.analyzer).join(' | '), params },
    build: (docs) => rs.forEach((r) => r.build(docs)),
    search: (q, limit) =>
      fuseRankings(
        rs.map((r) => r.search(q, Math.max(RRF_DEPTH, limit))),
        k,
        limit,
      ),
  };
}

export const hybridRrfRetriever: RetrieverEntry = {
  id: 'hybrid_rrf',
  label: 'RRF (lexical)',
  description: 'reciprocal-rank fusion of lexical retrievers (members and k chosen by 5-fold CV)',
  create: (opts) => createRrfRetriever(opts as { members?: unknown; k?: unknown }),
  tuning: { grid: RRF_GRID, describe: 'members x k' },
};
