/**
 * Run one encoding arm over one corpus: per-tool renderings, the listing, token statistics per
 * tokenizer, skipped tools with examples, and the index documents the retrieval stage indexes.
 *
 * Definitions (per tokenizer):
 * - total_tokens = count(renderListing(encodable tools)) (shared preambles paid once);
 * - per-tool counts = count(renderTool(tool)) (standalone form), in corpus order;
 * - mean/p50/p95/max of the per-tool counts (nearest-rank percentiles, pipeline/util/stats.ts);
 * - savings_vs_baseline_pct = (1 - total / baseline total under the same tokenizer) * 100
 *   (0 for baseline_json itself, null without a baseline run or when the baseline total is 0);
 * - heaviest_tools = top 10 per-tool counts, tokens descending, ties by tool_id ascending.
 * A tool the arm cannot render (ArmEncodeError from renderTool or indexDoc, or one named by an
 * ArmEncodeError from renderListing) is skipped and counted; the first 5 are kept as examples.
 * Any other error is a bug and propagates.
 */
import type { Corpus, IndexDoc, ToolRecord } from '../types.ts';
import { UserError } from '../types.ts';
import type { Tokenizer, TokenizerName } from '../tokens/tokenizer.ts';
import { mean, percentile } from '../util/stats.ts';
import { ArmEncodeError } from '../../arms/errors.ts';
import { BASELINE_ARM_ID, type Arm } from '../../arms/types.ts';

export const HEAVIEST_N = 10;
export const SKIP_EXAMPLES_N = 5;

export interface ToolTokens {
  tool_id: string;
  tokens: number;
}

export interface SkippedTool {
  tool_id: string;
  error: string;
}

/** Token statistics of one arm under one tokenizer. */
export interface ArmTokenStats {
  tokenizer: TokenizerName;
  /** tokens of the whole listing of encodable tools */
  total_tokens: number;
  /** per-tool standalone counts, aligned with ArmRunResult.tool_ids */
  per_tool: number[];
  mean_tokens: number;
  p50_tokens: number;
  p95_tokens: number;
  max_tokens: number;
  /** (1 - total/baseline total) * 100; 0 for the baseline arm; null when not computable */
  savings_vs_baseline_pct: number | null;
  heaviest_tools: ToolTokens[];
}

export interface ArmRunResult {
  arm: string;
  description: string;
  altersIndex: boolean;
  lowerBound: boolean;
  retryRate: number;
  corpus_id: string;
  corpus_version: string;
  /** tools in the corpus */
  tool_count: number;
  /** true when the whole arm could not run (runtime missing, or no tool encodable) */
  skipped: boolean;
  skip_reason: string | null;
  /** number of tools the arm could not encode */
  skipped_tools: number;
  /** first SKIP_EXAMPLES_N skipped tools, corpus order */
  skipped_examples: SkippedTool[];
  /** ids of the encodable tools, corpus order (what per_tool and index_docs are aligned with) */
  tool_ids: string[];
  /** one entry per tokenizer, in the order given; empty when skipped */
  tokens: ArmTokenStats[];
  /** index documents of the encodable tools, aligned with tool_ids; empty when skipped */
  index_docs: IndexDoc[];
}

export interface RankingAgreement {
  /** per tokenizer: non-skipped arm ids by total_tokens ascending (ties by arm id) */
  orders: { tokenizer: TokenizerName; arms: string[] }[];
  /** true when every tokenizer gives the same order */
  same: boolean;
}

function skipReasonText(e: unknown): string {
  return e instanceof ArmEncodeError ? e.reason : (e as Error).message;
}

/**
 * An arm rendered over a corpus, before any token is counted: the result without `tokens`, the
 * standalone texts of the encodable tools (aligned with `result.tool_ids`) and the listing.
 * `done` = nothing to count (whole-arm skip). Split from runArm so a caller can count the texts
 * elsewhere (e.g. another thread per tokenizer) and then call finishArm with the same numbers.
 */
export interface PreparedArm {
  result: ArmRunResult;
  done: boolean;
  texts: string[];
  listing: string;
}

/** Per-tokenizer counts of a PreparedArm: `per_tool` aligned with its texts, `total` = the listing. */
export interface ArmCounts {
  tokenizer: TokenizerName;
  per_tool: number[];
  total: number;
}

export async function runArm(arm: Arm, corpus: Corpus, tokenizers: readonly Tokenizer[], baseline?: ArmRunResult): Promise<ArmRunResult> {
  if (tokenizers.length === 0) throw new Error('runArm: no tokenizer given');
  const prep = await prepareArm(arm, corpus, baseline);
  if (prep.done) return prep.result;
  return finishArm(
    prep,
    tokenizers.map((tk) => countPrepared(prep, tk)),
    baseline,
  );
}

/** Count a PreparedArm under one tokenizer (per-tool texts, then the listing). */
export function countPrepared(prep: PreparedArm, tk: Tokenizer): ArmCounts {
  return { tokenizer: tk.name, per_tool: prep.texts.map((t) => tk.count(t)), total: tk.count(prep.listing) };
}

/** Render one arm over a corpus (skips, index docs, texts, listing); no token counting. */
export async function prepareArm(arm: Arm, corpus: Corpus, baseline?: ArmRunResult): Promise<PreparedArm> {
  if (corpus.tools.length === 0) throw new UserError(`corpus ${corpus.id}: no tools to encode`);
  if (baseline) {
    if (baseline.arm !== BASELINE_ARM_ID) throw new Error(`runArm: baseline must be a ${BASELINE_ARM_ID} result, got ${baseline.arm}`);
    if (baseline.corpus_id !== corpus.id || baseline.corpus_version !== corpus.version) {
      throw new Error(
        `runArm: baseline was run on corpus ${baseline.corpus_id}@${baseline.corpus_version}, not ${corpus.id}@${corpus.version}`,
      );
    }
  }
  const result: ArmRunResult = {
    arm: arm.meta.id,
    description: arm.meta.description,
    altersIndex: arm.meta.altersIndex,
    lowerBound: arm.meta.lowerBound,
    retryRate: arm.meta.retryRate,
    corpus_id: corpus.id,
    corpus_version: corpus.version,
    tool_count: corpus.tools.length,
    skipped: false,
    skip_reason: null,
    skipped_tools: 0,
    skipped_examples: [],
    tool_ids: [],
    tokens: [],
    index_docs: [],
  };
  const unavailable = await arm.available();
  if (unavailable !== null) {
    result.skipped = true;
    result.skip_reason = unavailable;
    return { result, done: true, texts: [], listing: '' };
  }

  const skip = (tool_id: string, error: string) => {
    result.skipped_tools++;
    if (result.skipped_examples.length < SKIP_EXAMPLES_N) result.skipped_examples.push({ tool_id, error });
  };

  // Per-tool pass, corpus order.
  let kept: { tool: ToolRecord; text: string; doc: IndexDoc }[] = [];
  for (const tool of corpus.tools) {
    let text: string;
    let doc: IndexDoc;
    try {
      text = arm.renderTool(tool);
    } catch (e) {
      if (!(e instanceof ArmEncodeError)) throw e;
      skip(tool.tool_id, skipReasonText(e));
      continue;
    }
    try {
      doc = arm.indexDoc(tool);
    } catch (e) {
      if (!(e instanceof ArmEncodeError)) throw e;
      skip(tool.tool_id, `index metadata: ${skipReasonText(e)}`);
      continue;
    }
    kept.push({ tool, text, doc });
  }

  // Listing; a listing error naming one of the kept tools skips that tool and retries.
  let listing: string | null = null;
  while (listing === null && kept.length > 0) {
    try {
      listing = arm.renderListing(kept.map((k) => k.tool));
    } catch (e) {
      const at = e instanceof ArmEncodeError && e.toolId !== undefined ? kept.findIndex((k) => k.tool.tool_id === e.toolId) : -1;
      if (at < 0) throw new Error(`arm ${arm.meta.id}: listing of corpus ${corpus.id} failed: ${(e as Error).message}`);
      skip(kept[at].tool.tool_id, `listing: ${skipReasonText(e)}`);
      kept = kept.filter((_, i) => i !== at);
    }
  }
  if (listing === null) {
    result.skipped = true;
    const first = result.skipped_examples[0];
    result.skip_reason = `no tool of corpus ${corpus.id} could be encoded (${result.skipped_tools} skipped; first: ${first.tool_id}: ${first.error})`;
    return { result, done: true, texts: [], listing: '' };
  }

  result.tool_ids = kept.map((k) => k.tool.tool_id);
  result.index_docs = kept.map((k) => k.doc);
  return { result, done: false, texts: kept.map((k) => k.text), listing };
}

/**
 * Fill `result.tokens` from counts (one entry per tokenizer, in the order given) and return the
 * result. The prepared texts are released (the counts are all that is kept).
 */
export function finishArm(prep: PreparedArm, counts: readonly ArmCounts[], baseline?: ArmRunResult): ArmRunResult {
  const result = prep.result;
  if (prep.done) return result;
  for (const c of counts) {
    const perTool = c.per_tool;
    if (perTool.length !== result.tool_ids.length) {
      throw new Error(`arm ${result.arm}: ${c.tokenizer} counted ${perTool.length} texts for ${result.tool_ids.length} tools`);
    }
    const total = c.total;
    result.tokens.push({
      tokenizer: c.tokenizer,
      total_tokens: total,
      per_tool: perTool,
      mean_tokens: mean(perTool),
      p50_tokens: percentile(perTool, 50),
      p95_tokens: percentile(perTool, 95),
      max_tokens: perTool.reduce((a, b) => Math.max(b, a), 0),
      savings_vs_baseline_pct: savings(result.arm, c.tokenizer, total, baseline),
      heaviest_tools: heaviest(result.tool_ids, perTool, HEAVIEST_N),
    });
  }
  prep.texts = [];
  prep.listing = '';
  return result;
}

function savings(armId: string, tokenizer: TokenizerName, total: number, baseline?: ArmRunResult): number | null {
  if (armId === BASELINE_ARM_ID) return 0;
  const base = baseline?.tokens.find((t) => t.tokenizer === tokenizer);
  if (!base || base.total_tokens === 0) return null;
  return (1 - total / base.total_tokens) * 100;
}

/** Top n by tokens descending, ties by tool_id ascending (code-unit order of ASCII-ish ids). */
export function heaviest(ids: readonly string[], tokens: readonly number[], n: number): ToolTokens[] {
  const idx = ids.map((_, i) => i);
  idx.sort((a, b) => tokens[b] - tokens[a] || (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
  return idx.slice(0, n).map((i) => ({ tool_id: ids[i], tokens: tokens[i] }));
}

/** Arm order by total listing tokens under each tokenizer, and whether all tokenizers agree. */
export function rankingAgreement(results: readonly ArmRunResult[]): RankingAgreement {
  const names: TokenizerName[] = [];
  for (const r of results) for (const t of r.tokens) if (!names.includes(t.tokenizer)) names.push(t.tokenizer);
  const orders = names.map((tokenizer) => {
    const rows = results
      .filter((r) => !r.skipped)
      .map((r) => ({ arm: r.arm, total: r.tokens.find((t) => t.tokenizer === tokenizer)?.total_tokens }))
      .filter((r): r is { arm: string; total: number } => r.total !== undefined);
    rows.sort((a, b) => a.total - b.total || (a.arm < b.arm ? -1 : a.arm > b.arm ? 1 : 0));
    return { tokenizer, arms: rows.map((r) => r.arm) };
  });
  const key = (a: string[]) => a.join('\u0000');
  const same = orders.every((o) => key(o.arms) === key(orders[0].arms));
  return { orders, same };
}
