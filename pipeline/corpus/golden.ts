/**
 * Golden query sets: `{format?: "mcpgauge-golden", corpus_version, version?, description?,
 * call_allow?: [tool_id], queries: [{id, query, labels: [{tool_id, relevance}], notes?,
 * call?: {tool_id, arguments}}]}`.
 *
 * `call` (optional) says how to call the query's answer for real (the live stage's result-cost
 * measurement): the tool and its arguments (strings may hold the placeholder `<ALLOWED_DIR>`, the
 * filesystem root of the embedded target). The live stage calls only tools annotated
 * `readOnlyHint: true`, or listed in `call_allow`.
 *
 * Relevance is an integer 0..3: 3 primary, 2 good, 1 acceptable, 0 explicit hard negative (a
 * near-duplicate that must not be mistaken for the answer). Validation (all violations are
 * collected and reported in one line listing the offending ids):
 * - query ids unique, query text not blank;
 * - every label resolves to a tool of the corpus, no tool labelled twice in one query;
 * - relevance is an integer in 0..3 and every query has at least one label >= 1;
 * - corpus_version equals the corpus version (unless allowed otherwise).
 */
import { statSync } from 'node:fs';
import { UserError, type Corpus, type GoldenCall, type GoldenLabel, type GoldenQuery, type GoldenSet } from '../types.ts';
import { fail, isPlainObject, jp, readJson, typeName } from './record.ts';
import { loadToolRet } from './toolret.ts';

export const GOLDEN_FORMAT = 'mcpgauge-golden';
const TOP_KEYS = new Set(['format', 'corpus_version', 'version', 'description', 'call_allow', 'queries']);
const QUERY_KEYS = new Set(['id', 'query', 'labels', 'notes', 'call']);
const CALL_KEYS = new Set(['tool_id', 'arguments']);
const LABEL_KEYS = new Set(['tool_id', 'relevance']);

/** Shape check of a parsed golden file (types and keys); returns a GoldenSet. */
export function parseGolden(file: string, data: unknown): GoldenSet {
  if (!isPlainObject(data)) fail(file, '$', `expected an object, got ${typeName(data)}`);
  if (data.format !== undefined && data.format !== GOLDEN_FORMAT)
    fail(file, '$.format', `expected ${JSON.stringify(GOLDEN_FORMAT)}, got ${JSON.stringify(data.format)}`);
  for (const k of Object.keys(data)) if (!TOP_KEYS.has(k)) fail(file, jp('$', k), `unknown key (allowed: ${[...TOP_KEYS].join(', ')})`);
  if (typeof data.corpus_version !== 'string' || data.corpus_version === '')
    fail(file, '$.corpus_version', `must be a non-empty string, got ${JSON.stringify(data.corpus_version)}`);
  if (data.version !== undefined && typeof data.version !== 'string') fail(file, '$.version', 'must be a string');
  if (!Array.isArray(data.queries)) fail(file, '$.queries', `expected an array, got ${typeName(data.queries)}`);
  if (data.queries.length === 0) fail(file, '$.queries', 'golden set has no queries');
  const queries: GoldenQuery[] = data.queries.map((q: unknown, i: number) => {
    const p = `$.queries[${i}]`;
    if (!isPlainObject(q)) fail(file, p, `expected an object, got ${typeName(q)}`);
    for (const k of Object.keys(q)) if (!QUERY_KEYS.has(k)) fail(file, jp(p, k), `unknown key (allowed: ${[...QUERY_KEYS].join(', ')})`);
    if (typeof q.id !== 'string') fail(file, `${p}.id`, `must be a string, got ${typeName(q.id)}`);
    if (typeof q.query !== 'string') fail(file, `${p}.query`, `query ${JSON.stringify(q.id)}: must be a string, got ${typeName(q.query)}`);
    if (q.notes !== undefined && typeof q.notes !== 'string') fail(file, `${p}.notes`, 'must be a string');
    if (!Array.isArray(q.labels)) fail(file, `${p}.labels`, `query ${JSON.stringify(q.id)}: expected an array, got ${typeName(q.labels)}`);
    const labels: GoldenLabel[] = q.labels.map((l: unknown, j: number) => {
      const lp = `${p}.labels[${j}]`;
      if (!isPlainObject(l)) fail(file, lp, `expected {tool_id, relevance}, got ${typeName(l)}`);
      for (const k of Object.keys(l)) if (!LABEL_KEYS.has(k)) fail(file, jp(lp, k), `unknown key (allowed: tool_id, relevance)`);
      if (typeof l.tool_id !== 'string') fail(file, `${lp}.tool_id`, `must be a string, got ${typeName(l.tool_id)}`);
      if (typeof l.relevance !== 'number') fail(file, `${lp}.relevance`, `must be a number, got ${typeName(l.relevance)}`);
      return { tool_id: l.tool_id, relevance: l.relevance };
    });
    const out: GoldenQuery = { id: q.id, query: q.query, labels, ...(typeof q.notes === 'string' ? { notes: q.notes } : {}) };
    if (q.call !== undefined) out.call = parseCall(file, `${p}.call`, q.call);
    return out;
  });
  const set: GoldenSet = {
    corpus_version: data.corpus_version,
    ...(typeof data.version === 'string' ? { version: data.version } : {}),
    queries,
  };
  if (data.call_allow !== undefined) {
    if (!Array.isArray(data.call_allow) || data.call_allow.some((x) => typeof x !== 'string'))
      fail(file, '$.call_allow', `must be an array of tool ids, got ${JSON.stringify(data.call_allow)}`);
    set.call_allow = data.call_allow as string[];
  }
  return set;
}

function parseCall(file: string, p: string, c: unknown): GoldenCall {
  if (!isPlainObject(c)) fail(file, p, `expected {tool_id, arguments}, got ${typeName(c)}`);
  for (const k of Object.keys(c)) if (!CALL_KEYS.has(k)) fail(file, jp(p, k), 'unknown key (allowed: tool_id, arguments)');
  if (typeof c.tool_id !== 'string' || c.tool_id === '')
    fail(file, `${p}.tool_id`, `must be a non-empty string, got ${JSON.stringify(c.tool_id)}`);
  if (!isPlainObject(c.arguments)) fail(file, `${p}.arguments`, `expected an object, got ${typeName(c.arguments)}`);
  return { tool_id: c.tool_id, arguments: c.arguments as GoldenCall['arguments'] };
}

/** Semantic validation against a corpus; throws one UserError listing every offending id. */
export function validateGolden(
  golden: GoldenSet,
  corpus: Corpus,
  where: string,
  opts: { allowCorpusVersionMismatch?: boolean } = {},
): void {
  const ids = new Set(corpus.tools.map((t) => t.tool_id));
  const problems = new Map<string, string[]>();
  const add = (kind: string, item: string) => {
    const a = problems.get(kind) ?? [];
    a.push(item);
    problems.set(kind, a);
  };
  if (!opts.allowCorpusVersionMismatch && golden.corpus_version !== corpus.version)
    add(
      'corpus_version mismatch',
      `golden is for ${golden.corpus_version}, corpus is ${corpus.version} (--allow-version-mismatch accepts it when the tool ids still match)`,
    );
  if (golden.queries.length === 0) add('no queries', '(empty set)');
  const seen = new Set<string>();
  for (const q of golden.queries) {
    if (q.id.trim() === '') add('blank query id', `query #${golden.queries.indexOf(q)}`);
    if (seen.has(q.id)) add('duplicate query id', q.id);
    seen.add(q.id);
    if (q.query.trim() === '') add('empty query', q.id);
    const labelled = new Set<string>();
    let positive = 0;
    for (const l of q.labels) {
      if (!ids.has(l.tool_id)) add(`unknown tool_id (not in ${corpus.version})`, `${q.id} (${l.tool_id})`);
      if (labelled.has(l.tool_id)) add('tool labelled twice', `${q.id} (${l.tool_id})`);
      labelled.add(l.tool_id);
      if (!Number.isInteger(l.relevance) || l.relevance < 0 || l.relevance > 3)
        add('relevance not an integer 0..3', `${q.id} (${l.tool_id}=${l.relevance})`);
      else if (l.relevance >= 1) positive++;
    }
    if (positive === 0) add('no label with relevance >= 1', q.id);
    if (q.call && !ids.has(q.call.tool_id)) add(`unknown call tool_id (not in ${corpus.version})`, `${q.id} (${q.call.tool_id})`);
  }
  for (const t of golden.call_allow ?? []) if (!ids.has(t)) add(`unknown call_allow tool_id (not in ${corpus.version})`, t);
  if (problems.size === 0) return;
  const parts = [...problems.entries()].map(
    ([kind, items]) => `${kind}: ${items.slice(0, 10).join(', ')}${items.length > 10 ? ` (+${items.length - 10} more)` : ''}`,
  );
  throw new UserError(`${where}: invalid golden set: ${parts.join('; ')}`);
}

/**
 * Load and validate a golden set for `corpus`: a golden JSON file, or a ToolRet folder (its
 * queries become the golden set).
 */
export async function loadGolden(path: string, corpus: Corpus, opts: { allowCorpusVersionMismatch?: boolean } = {}): Promise<GoldenSet> {
  let golden: GoldenSet;
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw new UserError(`${path}: cannot read golden set (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (isDir) golden = (await loadToolRet(path)).golden;
  else golden = parseGolden(path, readJson(path));
  validateGolden(golden, corpus, path, opts);
  return golden;
}
