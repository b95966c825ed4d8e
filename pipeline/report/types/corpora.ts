/** `corpora[]` of the report: schema `$defs` corpus, hygiene. */
export interface DegenerateExample {
  tool_id: string;
  description: string;
  /** which rule fired, one of `rules` */
  rule?: string;
}

export interface CorpusHygiene {
  degenerate: {
    /** tools counted once even when several rules match */
    count: number;
    /** the rule texts applied, e.g. "description shorter than 20 characters" */
    rules: string[];
    /** up to ~10 examples */
    examples: DegenerateExample[];
  };
  /** size of each tool's canonical-JSON inputSchema, in UTF-8 bytes */
  schema_size: {
    unit: 'bytes';
    tools_with_schema: number;
    tools_without_schema: number;
    /** null when no tool has a schema */
    min: number | null;
    mean: number | null;
    p50: number | null;
    p95: number | null;
    max: number | null;
  };
  duplicate_schemas: {
    /** distinct canonical schemas */
    distinct: number;
    /** tools whose schema is shared with at least one other tool */
    tools_sharing: number;
    /** groups of tools sharing one schema, largest first (may be truncated) */
    groups: { schema_sha256: string; bytes: number; tool_count: number; tool_ids: string[] }[];
  } /** tools whose text holds U+FFFD (invalid UTF-8 in the source); absent in older reports */;
  invalid_utf8?: { count: number; tool_ids: string[] };
}

export interface CorpusReport {
  /** short id used in every row, e.g. "corpus-npm4-v1" */
  id: string;
  name: string;
  version: string;
  tool_count: number;
  license: string;
  attribution?: string;
  committed: boolean;
  /** loader: Corpus.format (a format id of pipeline/corpus/formats/index.ts, the mcpproxy one as "mcpproxy-v1" / "mcpproxy-v2"), or "synthetic" / "live" */
  format: string;
  source: string;
  /**
   * tool ids in corpus order; `arms[].by_tokenizer[*].per_tool_tokens` is aligned to this list.
   * Length must equal tool_count (checked by validateReport).
   */
  tool_ids: string[];
  hygiene: CorpusHygiene;
  /** present only when some counted text held a run longer than the tokenizer's run limit */
  token_bounds?: TokenBounds;
}

/**
 * Where bounded tokenizing (pipeline/tokens/bound.ts) cut a text before BPE: a run of one
 * character kind longer than `run_limit` characters is counted in pieces of that length, so the
 * count of a text holding it is within `max_error_per_cut` tokens per cut of the exact count
 * (every other text is counted exactly).
 */
export interface TokenBounds {
  /** runs longer than this many UTF-16 units were cut into pieces of this length */
  run_limit: number;
  /** how the affected counts relate to the exact ones: estimates within max_error_per_cut tokens per cut */
  bound: 'estimate';
  /** |count - exact| <= max_error_per_cut * cuts for each affected text (measured, test/tokens/bound.test.ts) */
  max_error_per_cut: number;
  /** one sentence saying how the count is bounded */
  note: string;
  /** how many tool fields hold such a run (`fields` lists the first 20) */
  fields_total: number;
  /** the tool fields holding such a run (field: name, description, inputSchema, annotations) */
  fields: { tool_id: string; field: string; runs: number; longest_run: number; cuts: number }[];
  /** per arm: its counted texts (listing, per-tool texts, simulated responses) that were cut */
  arms: { arm: string; texts: number; runs: number; cuts: number }[];
}
