/**
 * Report validation: JSON Schema (draft 2020-12, ajv) plus cross-reference checks the schema
 * cannot express (ids resolve, aligned arrays have the right length, components sum to totals).
 * The schema describes report.json; a report held in memory also has per-query rows (file.ts),
 * checked here against each row's query_count and query_ids_sha256 and left out of the schema check.
 */
import { DATASETS_DIR } from '../constants.ts';
import { resolve } from 'node:path';
import { compileSchemaFile, describeAjvError, type ValidateFunction } from '../util/schema.ts';
import { UserError } from '../types.ts';
import type { Report } from './types.ts';
import type { RetrievalReport } from './types.ts';
import { queryRowBlocks, withoutQueryRows } from './file.ts';
import { queryIdsDigest } from './rows.ts';

export const REPORT_SCHEMA_PATH = resolve(DATASETS_DIR, 'schemas', 'report.schema.json');

/** How many failures the one-line message lists. */
const MAX_LISTED = 5;

/** An invalid report. One-line message; `problems` holds every failure found. */
export class ReportValidationError extends UserError {
  constructor(readonly problems: string[]) {
    const listed = problems.slice(0, MAX_LISTED).join('; ');
    const more = problems.length > MAX_LISTED ? `; ... and ${problems.length - MAX_LISTED} more` : '';
    super(`invalid report (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${listed}${more}`);
    this.name = 'ReportValidationError';
  }
}

let compiled: ValidateFunction | undefined;

/** The compiled schema validator (compiled once). */
export function reportSchemaValidator(): ValidateFunction {
  if (compiled) return compiled;
  compiled = compileSchemaFile(REPORT_SCHEMA_PATH);
  return compiled;
}

/** The (corpus, arm, retriever) key of a retrieval row; unique within a report. */
function retrievalKey(r: RetrievalReport): string {
  return `${r.corpus_id}\u0000${r.arm}\u0000${r.retriever?.id ?? ''}`;
}

/**
 * Walk the object for non-finite numbers (NaN/Infinity), which JSON cannot carry. `path` holds
 * the keys from the root down to `value`; a finding's JSON pointer is joined from it then (not
 * built for every value on the way: a report holds tens of thousands).
 */
function nonFinite(value: unknown, path: (string | number)[], out: string[]): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) out.push(`${path.length ? `/${path.join('/')}` : '/'} must be a finite number (got ${value})`);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      nonFinite(value[i], path, out);
      path.pop();
    }
  } else if (value && typeof value === 'object') {
    for (const k of Object.keys(value)) {
      path.push(k);
      nonFinite((value as Record<string, unknown>)[k], path, out);
      path.pop();
    }
  }
}

/** Checks the schema cannot express. Assumes the schema passed. */
function crossChecks(r: Report): string[] {
  const out: string[] = [];
  const corpora = new Map<string, number>();
  r.corpora.forEach((c, i) => {
    if (corpora.has(c.id)) out.push(`/corpora/${i}/id duplicate corpus id ${JSON.stringify(c.id)}`);
    corpora.set(c.id, c.tool_count);
    if (c.tool_ids.length !== c.tool_count) {
      out.push(`/corpora/${i}/tool_ids has ${c.tool_ids.length} ids but tool_count is ${c.tool_count}`);
    }
  });
  const corpusRef = (path: string, id: string) => {
    if (!corpora.has(id)) out.push(`${path}/corpus_id unknown corpus ${JSON.stringify(id)}`);
  };
  const armKeys = new Set<string>();
  r.arms.forEach((a, i) => {
    corpusRef(`/arms/${i}`, a.corpus_id);
    const key = `${a.corpus_id}\u0000${a.arm}`;
    if (armKeys.has(key)) out.push(`/arms/${i} duplicate arm ${JSON.stringify(a.arm)} for corpus ${JSON.stringify(a.corpus_id)}`);
    armKeys.add(key);
    const n = corpora.get(a.corpus_id);
    for (const [tok, s] of Object.entries(a.by_tokenizer)) {
      if (n !== undefined && s.per_tool_tokens.length !== n) {
        out.push(`/arms/${i}/by_tokenizer/${tok}/per_tool_tokens has ${s.per_tool_tokens.length} entries but the corpus has ${n} tools`);
      }
    }
  });
  r.ranking_agreement.forEach((x, i) => corpusRef(`/ranking_agreement/${i}`, x.corpus_id));
  const retrievalKeys = new Set<string>();
  r.retrieval.forEach((x, i) => {
    corpusRef(`/retrieval/${i}`, x.corpus_id);
    const key = retrievalKey(x);
    if (retrievalKeys.has(key)) {
      out.push(
        `/retrieval/${i} duplicate row for corpus ${JSON.stringify(x.corpus_id)}, arm ${JSON.stringify(x.arm)}, retriever ${JSON.stringify(x.retriever?.id ?? null)}`,
      );
    }
    retrievalKeys.add(key);
  });
  for (const { keys, row } of queryRowBlocks(r)) {
    if (row.per_query === undefined) continue;
    const what = `per-query rows of ${keys.source}${keys.system ? ` ${keys.system}` : ''} ${keys.corpus ?? ''}/${keys.arm}${keys.retriever ? `/${keys.retriever}` : ''}`;
    if (row.per_query.length !== row.query_count) out.push(`${what}: ${row.per_query.length} rows but query_count is ${row.query_count}`);
    else if (queryIdsDigest(row.per_query) !== row.query_ids_sha256) out.push(`${what}: query ids do not match query_ids_sha256`);
  }
  const econ = (path: string, e: { break_even: { corpus_id: string }[]; session_estimates: { corpus_id: string }[] }) => {
    e.break_even.forEach((x, i) => corpusRef(`${path}/break_even/${i}`, x.corpus_id));
    e.session_estimates.forEach((x, i) => corpusRef(`${path}/session_estimates/${i}`, x.corpus_id));
  };
  econ('/economics', r.economics);
  if (r.live) {
    r.live.responses.forEach((x, i) => {
      if (x.ok && x.components && x.total_tokens !== undefined) {
        const c = x.components;
        const sum = c.input_schemas + c.descriptions + c.usage_instructions + c.metadata + c.other;
        if (sum !== x.total_tokens) out.push(`/live/responses/${i}/components sum to ${sum} but total_tokens is ${x.total_tokens}`);
      }
    });
    if (!r.live.authoritative_headline && !r.live.headline_reason) {
      out.push('/live/headline_reason required when authoritative_headline is false');
    }
    if (r.live.corpus_id !== undefined) corpusRef('/live', r.live.corpus_id);
    // live economics rows may refer to a corpus that only exists live (e.g. "live-proxy")
  }
  return out;
}

/** what report.json would hold of `obj` (its per-query rows left out); a malformed one as it is */
function fileForm(obj: unknown): unknown {
  try {
    return withoutQueryRows(obj as Report);
  } catch {
    return obj;
  }
}

/**
 * Validate a report object. Returns it typed as Report; throws ReportValidationError (a
 * one-line UserError listing the first few failures: instancePath + message) when invalid.
 */
export function validateReport(obj: unknown): Report {
  const problems: string[] = [];
  nonFinite(obj, [], problems);
  const validate = reportSchemaValidator();
  if (!validate(fileForm(obj))) {
    for (const e of validate.errors ?? []) {
      // if/then/else wrappers only repeat what the nested errors already say
      if (e.keyword === 'if') continue;
      const line = describeAjvError(e);
      if (!problems.includes(line)) problems.push(line);
    }
  }
  if (problems.length === 0) problems.push(...crossChecks(obj as Report));
  if (problems.length > 0) throw new ReportValidationError(problems);
  return obj as Report;
}
