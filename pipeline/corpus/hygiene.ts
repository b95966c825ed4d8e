/**
 * Corpus hygiene: what makes a catalog hard to search or expensive to list, reported as-is.
 *
 * - Degenerate descriptions (each tool counted once even if several rules hit): description
 *   empty or whitespace-only; fewer than 20 Unicode code points (counted on the untrimmed
 *   string, as the predecessor did); matches a stub pattern (default `^Proxy for `).
 * - Schema size: bytes (UTF-8) of the canonical JSON of each inputSchema, and the number of
 *   top-level `properties`; n/mean/p50/p95/max over tools that have a schema (nearest-rank
 *   percentiles, pipeline/util/stats.ts). Tools without a schema are counted separately.
 * - Duplicate schemas: tools whose canonical schemas are byte-identical form a group; reports
 *   the distinct count, how many tools share a schema with another tool, and the largest groups.
 */
import { canonicalJson, sha256Hex } from './canonical.ts';
import { compareIds } from './record.ts';
import { distribution } from '../util/stats.ts';
import { UserError, type Corpus, type JsonValue } from '../types.ts';

export const MIN_DESCRIPTION_CODE_POINTS = 20;
export const DEFAULT_STUB_PATTERNS = ['^Proxy for '];

export const RULE_EMPTY = 'description empty or whitespace-only';
export const RULE_SHORT = `description shorter than ${MIN_DESCRIPTION_CODE_POINTS} characters`;
export const ruleStub = (pattern: string) => `description matches stub pattern ${pattern}`;

export interface SizeStats {
  /** number of values (tools with a schema) */
  n: number;
  /** null when n = 0 */
  mean: number | null;
  p50: number | null;
  p95: number | null;
  max: number | null;
}

export interface DegenerateExample {
  tool_id: string;
  description: string;
  rules: string[];
}

export interface DegenerateDescriptions {
  /** tools hit by at least one rule (each counted once) */
  count: number;
  /** share of all tools, 0..1 */
  fraction: number;
  rules: string[];
  by_rule: Array<{ rule: string; count: number }>;
  /** up to 10, in tool_id order */
  examples: DegenerateExample[];
}

export interface SchemaGroup {
  /** first 12 hex of sha256 of the canonical schema */
  schema_sha256: string;
  bytes: number;
  tool_count: number;
  /** up to 10, in tool_id order */
  tool_ids: string[];
}

export interface DuplicateSchemas {
  tools_with_schema: number;
  distinct: number;
  /** tools whose schema is identical to at least one other tool's */
  tools_sharing: number;
  /** groups with 2 or more tools */
  groups: number;
  /** up to 5 largest groups (size desc, then hash) */
  largest: SchemaGroup[];
}

export interface CorpusHygiene {
  corpus_id: string;
  corpus_version: string;
  tool_count: number;
  tools_without_schema: number;
  degenerate_descriptions: DegenerateDescriptions;
  schema_bytes: SizeStats;
  schema_properties: SizeStats;
  duplicate_schemas: DuplicateSchemas;
  /** tools whose description or schema holds U+FFFD: what invalid UTF-8 in the source decodes to */
  invalid_utf8: InvalidUtf8;
}

export interface InvalidUtf8 {
  count: number;
  /** up to 20, in tool_id order */
  tool_ids: string[];
}

/** The replacement character a UTF-8 decoder puts where the bytes are not valid UTF-8. */
const REPLACEMENT = '\uFFFD';

export interface HygieneOptions {
  /** regex sources; default DEFAULT_STUB_PATTERNS */
  stubPatterns?: string[];
  maxExamples?: number;
}

function sizeStats(values: number[]): SizeStats {
  if (values.length === 0) return { n: 0, mean: null, p50: null, p95: null, max: null };
  const d = distribution(values);
  return { n: d.n, mean: d.mean, p50: d.p50, p95: d.p95, max: d.max };
}

function propertyCount(schema: JsonValue): number {
  if (schema && typeof schema === 'object' && !Array.isArray(schema)) {
    const p = (schema as Record<string, JsonValue>).properties;
    if (p && typeof p === 'object' && !Array.isArray(p)) return Object.keys(p).length;
  }
  return 0;
}

export function corpusHygiene(corpus: Corpus, opts: HygieneOptions = {}): CorpusHygiene {
  const patterns = opts.stubPatterns ?? DEFAULT_STUB_PATTERNS;
  const maxEx = opts.maxExamples ?? 10;
  const stubs = patterns.map((src) => {
    try {
      return { src, re: new RegExp(src, 'u') };
    } catch (e) {
      throw new UserError(`stub pattern ${JSON.stringify(src)}: invalid regular expression (${(e as Error).message})`);
    }
  });
  const rules = [RULE_EMPTY, RULE_SHORT, ...stubs.map((s) => ruleStub(s.src))];
  const byRule = new Map(rules.map((r) => [r, 0]));
  const degenerate: DegenerateExample[] = [];
  const tools = [...corpus.tools].sort((a, b) => compareIds(a.tool_id, b.tool_id));
  const bytes: number[] = [];
  const props: number[] = [];
  const groups = new Map<string, { bytes: number; ids: string[] }>();
  const badText: string[] = [];

  for (const t of tools) {
    const d = t.description ?? '';
    if (d.includes(REPLACEMENT) || (t.inputSchema !== undefined && canonicalJson(t.inputSchema).includes(REPLACEMENT)))
      badText.push(t.tool_id);
    const hit: string[] = [];
    if (d.trim() === '') hit.push(RULE_EMPTY);
    if ([...d].length < MIN_DESCRIPTION_CODE_POINTS) hit.push(RULE_SHORT);
    for (const s of stubs) if (s.re.test(d)) hit.push(ruleStub(s.src));
    for (const r of hit) byRule.set(r, (byRule.get(r) ?? 0) + 1);
    if (hit.length) degenerate.push({ tool_id: t.tool_id, description: d, rules: hit });

    if (t.inputSchema !== undefined) {
      const c = canonicalJson(t.inputSchema);
      const b = Buffer.byteLength(c, 'utf8');
      bytes.push(b);
      props.push(propertyCount(t.inputSchema));
      const h = sha256Hex(c);
      const g = groups.get(h) ?? { bytes: b, ids: [] };
      g.ids.push(t.tool_id);
      groups.set(h, g);
    }
  }

  const shared = [...groups.entries()].filter(([, g]) => g.ids.length > 1);
  const largest = shared
    .sort((a, b) => b[1].ids.length - a[1].ids.length || compareIds(a[0], b[0]))
    .slice(0, 5)
    .map(([h, g]) => ({ schema_sha256: h.slice(0, 12), bytes: g.bytes, tool_count: g.ids.length, tool_ids: g.ids.slice(0, 10) }));

  return {
    corpus_id: corpus.id,
    corpus_version: corpus.version,
    tool_count: tools.length,
    tools_without_schema: tools.length - bytes.length,
    degenerate_descriptions: {
      count: degenerate.length,
      fraction: tools.length ? degenerate.length / tools.length : 0,
      rules,
      by_rule: rules.map((rule) => ({ rule, count: byRule.get(rule) ?? 0 })),
      examples: degenerate.slice(0, maxEx),
    },
    schema_bytes: sizeStats(bytes),
    schema_properties: sizeStats(props),
    duplicate_schemas: {
      tools_with_schema: bytes.length,
      distinct: groups.size,
      tools_sharing: shared.reduce((s, [, g]) => s + g.ids.length, 0),
      groups: shared.length,
      largest,
    },
    invalid_utf8: { count: badText.length, tool_ids: badText.slice(0, 20) },
  };
}

/** One warning line for the log, or null when every text decoded cleanly. */
export function invalidUtf8Warning(corpusId: string, h: InvalidUtf8): string | null {
  if (h.count === 0) return null;
  return `warning: corpus ${corpusId}: ${h.count} tool(s) hold invalid UTF-8 (decoded as U+FFFD) in a description or schema: ${h.tool_ids.slice(0, 5).join(', ')}${h.count > 5 ? ', …' : ''}`;
}
