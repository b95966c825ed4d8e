/**
 * Gathering, done once per corpus: the corpus file (or ToolRet folder) loaded with its golden
 * set, its hygiene measured, and the report's corpus row built from both.
 */
import { statSync } from 'node:fs';
import type { Corpus, GoldenSet } from '../types.ts';
import { loadCorpus } from '../corpus/load.ts';
import { loadGolden } from '../corpus/golden.ts';
import { loadToolRet } from '../corpus/toolret.ts';
import { corpusHygiene, type CorpusHygiene as CorpusHygieneSrc } from '../corpus/hygiene.ts';
import type { CorpusHygiene, CorpusReport } from '../report/index.ts';
import { timed, type StageTiming } from './timings.ts';

export interface CorpusInput {
  path: string;
  golden?: string;
  /** accept a golden set made for another version of the corpus (bench --allow-version-mismatch) */
  allowVersionMismatch?: boolean;
}

/** A corpus file, or a ToolRet folder (its own golden set unless `golden` names another). */
export async function loadInput(input: CorpusInput): Promise<{ corpus: Corpus; golden?: GoldenSet }> {
  let isDir = false;
  try {
    isDir = statSync(input.path).isDirectory();
  } catch {
    /* loadCorpus reports it */
  }
  if (isDir) {
    const tr = await loadToolRet(input.path);
    return {
      corpus: tr.corpus,
      golden: input.golden
        ? await loadGolden(input.golden, tr.corpus, { allowCorpusVersionMismatch: input.allowVersionMismatch })
        : tr.golden,
    };
  }
  const corpus = await loadCorpus(input.path);
  return {
    corpus,
    golden: input.golden ? await loadGolden(input.golden, corpus, { allowCorpusVersionMismatch: input.allowVersionMismatch }) : undefined,
  };
}

/** The report's shape of the corpus hygiene (pipeline/corpus/hygiene.ts). */
export function toReportHygiene(h: CorpusHygieneSrc): CorpusHygiene {
  return {
    degenerate: {
      count: h.degenerate_descriptions.count,
      rules: h.degenerate_descriptions.rules,
      examples: h.degenerate_descriptions.examples.map((e) => ({ tool_id: e.tool_id, description: e.description, rule: e.rules[0] })),
    },
    schema_size: {
      unit: 'bytes',
      tools_with_schema: h.schema_bytes.n,
      tools_without_schema: h.tools_without_schema,
      min: null,
      mean: h.schema_bytes.mean,
      p50: h.schema_bytes.p50,
      p95: h.schema_bytes.p95,
      max: h.schema_bytes.max,
    },
    duplicate_schemas: {
      distinct: h.duplicate_schemas.distinct,
      tools_sharing: h.duplicate_schemas.tools_sharing,
      groups: h.duplicate_schemas.largest.map((g) => ({
        schema_sha256: g.schema_sha256,
        bytes: g.bytes,
        tool_count: g.tool_count,
        tool_ids: g.tool_ids,
      })),
    },
    invalid_utf8: { count: h.invalid_utf8.count, tool_ids: h.invalid_utf8.tool_ids },
  };
}

/** The report's corpus row. */
export function corpusRow(corpus: Corpus, hygiene: CorpusHygieneSrc): CorpusReport {
  return {
    id: corpus.id,
    name: corpus.name,
    version: corpus.version,
    tool_count: corpus.tools.length,
    license: corpus.license,
    ...(corpus.attribution ? { attribution: corpus.attribution } : {}),
    committed: corpus.committed,
    format: corpus.format,
    source: corpus.source,
    tool_ids: corpus.tools.map((t) => t.tool_id),
    hygiene: toReportHygiene(hygiene),
  };
}

/** Stage: one corpus loaded once, with its golden set and the report's corpus row (hygiene). */
export async function gatherCorpus(
  input: CorpusInput,
  timings: StageTiming[],
): Promise<{ corpus: Corpus; golden?: GoldenSet; row: CorpusReport }> {
  const { corpus, golden } = await timed(timings, 'load', undefined, () => loadInput(input));
  const hygiene = await timed(timings, 'hygiene', corpus.id, async () => corpusHygiene(corpus));
  return { corpus, golden, row: corpusRow(corpus, hygiene) };
}
