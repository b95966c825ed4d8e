/** Shared scalars of the report document (datasets/schemas/report.schema.json `$defs` id, tokenizer, figure). */
import type { Figure, JsonValue, Provenance } from '../../types.ts';

export type { Figure, Provenance, JsonValue };

/** Tokenizer name, e.g. "cl100k_base" | "o200k_base" (pattern ^[a-z0-9_]+$). */
export type TokenizerKey = string;
