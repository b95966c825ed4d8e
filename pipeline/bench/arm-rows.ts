/**
 * Report rows of the arms (pipeline/bench/arm-tokens.ts results): one `ArmReport` per (corpus,
 * arm), per-tool counts aligned with the corpus's `tool_ids` (null = skipped by the arm), and
 * the corpus's ranking-agreement row. Pure: results in, rows out.
 */
import type { Corpus } from '../types.ts';
import type { ArmReport, RankingAgreement } from '../report/index.ts';
import { rankingAgreement, type ArmRunResult } from './arm-tokens.ts';

export function toArmReport(r: ArmRunResult, corpus: Corpus): ArmReport {
  const row: ArmReport = {
    arm: r.arm,
    corpus_id: corpus.id,
    description: r.description,
    skipped: r.skipped,
    index_altering: r.altersIndex,
    lower_bound: r.lowerBound,
    retry_rate: r.retryRate,
    skipped_tools: r.skipped_tools,
    skip_examples: r.skipped_examples.map((s) => ({ tool_id: s.tool_id, error: s.error })),
    by_tokenizer: {},
  };
  if (r.skipped) {
    row.skip_reason = r.skip_reason ?? 'skipped';
    return row;
  }
  const pos = new Map(r.tool_ids.map((id, i) => [id, i]));
  for (const t of r.tokens) {
    row.by_tokenizer[t.tokenizer] = {
      total_tokens: { value: t.total_tokens, unit: 'tokens', provenance: 'measured', tokenizer: t.tokenizer, n: r.tool_ids.length },
      mean: t.mean_tokens,
      p50: t.p50_tokens,
      p95: t.p95_tokens,
      max: t.max_tokens,
      savings_vs_baseline_pct: { value: t.savings_vs_baseline_pct ?? 0, unit: '%', provenance: 'computed', tokenizer: t.tokenizer },
      heaviest: t.heaviest_tools,
      per_tool_tokens: corpus.tools.map((tool) => {
        const i = pos.get(tool.tool_id);
        return i === undefined ? null : t.per_tool[i];
      }),
    };
  }
  return row;
}

/** The corpus's ranking-agreement row: the arms ordered by total tokens under each tokenizer. */
export function agreementRow(corpusId: string, results: readonly ArmRunResult[]): RankingAgreement {
  const agreement = rankingAgreement(results);
  return {
    corpus_id: corpusId,
    by_tokenizer: Object.fromEntries(agreement.orders.map((o) => [o.tokenizer, o.arms])),
    same: agreement.same,
  };
}
