/**
 * Where the offline stage's counts are bounded rather than exact: the tool fields and the arms'
 * counted texts holding a run longer than the tokenizer's run limit (pipeline/tokens/bound.ts
 * cuts them before BPE). Recorded on the corpus row as `token_bounds` (absent when nothing was
 * cut), printed as a warning and shown as a dashboard banner.
 */
import type { Corpus } from '../types.ts';
import type { TokenBounds } from '../report/index.ts';
import { findCuts, MAX_ERROR_PER_CUT, RUN_LIMIT } from '../tokens/bound.ts';

/** at most this many fields are listed (the rest are counted in the warning only) */
const MAX_FIELDS = 20;

export const TOKEN_BOUND_NOTE =
  `Runs of one character kind (letters, punctuation or whitespace) longer than ${RUN_LIMIT} characters are cut into ` +
  `${RUN_LIMIT}-character pieces before BPE, which is quadratic in a piece's length; tokens never cross a cut, so the count ` +
  `of a text holding such a run is an estimate within ${MAX_ERROR_PER_CUT} token per cut of the exact count (measured: usually above it, ` +
  'never by more than one token per cut); every other text is counted exactly.';

export interface BoundTally {
  /** add the texts one arm counted */
  add(arm: string, texts: readonly string[]): void;
  /** the report's record, or undefined when nothing was cut */
  result(): TokenBounds | undefined;
}

/** The fields of each tool holding a run past the limit. */
export function fieldBounds(corpus: Corpus): TokenBounds['fields'] {
  const out: TokenBounds['fields'] = [];
  for (const t of corpus.tools) {
    const fields: [string, string][] = [
      ['name', t.tool],
      ['description', t.description],
      ['inputSchema', t.inputSchema === undefined ? '' : JSON.stringify(t.inputSchema)],
      ['annotations', t.annotations === undefined ? '' : JSON.stringify(t.annotations)],
    ];
    for (const [field, text] of fields) {
      const c = findCuts(text);
      if (c) out.push({ tool_id: t.tool_id, field, runs: c.runs, longest_run: c.longest, cuts: c.cuts.length });
    }
  }
  return out;
}

export function boundTally(corpus: Corpus): BoundTally {
  const fields = fieldBounds(corpus);
  const arms = new Map<string, TokenBounds['arms'][number]>();
  return {
    add(arm, texts) {
      for (const text of texts) {
        const c = findCuts(text);
        if (!c) continue;
        let a = arms.get(arm);
        if (!a) arms.set(arm, (a = { arm, texts: 0, runs: 0, cuts: 0 }));
        a.texts++;
        a.runs += c.runs;
        a.cuts += c.cuts.length;
      }
    },
    result() {
      if (fields.length === 0 && arms.size === 0) return undefined;
      return {
        run_limit: RUN_LIMIT,
        bound: 'estimate',
        max_error_per_cut: MAX_ERROR_PER_CUT,
        note: TOKEN_BOUND_NOTE,
        fields_total: fields.length,
        fields: fields.slice(0, MAX_FIELDS),
        arms: [...arms.values()],
      };
    },
  };
}

/** The console line for a corpus whose counts were bounded (ids quoted as JSON: corpus text is data). */
export function tokenBoundsWarning(corpusId: string, tb: TokenBounds): string {
  const where = tb.fields.slice(0, 3).map((f) => `${JSON.stringify(f.tool_id)} ${f.field} (run of ${f.longest_run} chars)`);
  const more = tb.fields_total > 3 ? `, and ${tb.fields_total - 3} more field(s)` : '';
  const armList = tb.arms.map((a) => a.arm);
  return (
    `warning: corpus ${corpusId}: ${where.length ? where.join(', ') + more : 'a rendered text'} longer than the ${tb.run_limit}-character run limit: ` +
    `cut before tokenizing in ${armList.length} arm(s)${
      armList.length
        ? ` (${armList
            .slice(0, 4)
            .map((a) => JSON.stringify(a))
            .join(', ')}${armList.length > 4 ? ', …' : ''})`
        : ''
    }; ` +
    `the counts of those texts are estimates within ${tb.max_error_per_cut} token per cut`
  );
}
