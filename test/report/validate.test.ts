import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateReport, ReportValidationError, REPORT_SCHEMA_PATH } from '../../pipeline/report/validate.ts';
import { UserError } from '../../pipeline/types.ts';
import type { Report } from '../../pipeline/report/types.ts';
import { isScored } from '../../pipeline/report/types.ts';
import { buildSampleReport, withVariants } from './sample.ts';

function rejects(r: unknown): ReportValidationError {
  try {
    validateReport(r);
  } catch (e) {
    assert.ok(e instanceof ReportValidationError, `expected ReportValidationError, got ${e}`);
    assert.ok(e instanceof UserError);
    assert.ok(!e.message.includes('\n'), 'message must be one line');
    return e;
  }
  assert.fail('invalid report was accepted');
}

test('the sample report (with and without live) is valid against the schema', () => {
  const full = buildSampleReport();
  assert.equal(validateReport(full), full);
  assert.ok(full.live);
  const offline = buildSampleReport({ live: false });
  assert.equal(offline.live, undefined);
  validateReport(offline);
  // round trip through JSON text changes nothing the schema cares about
  validateReport(JSON.parse(JSON.stringify(full)));
});

test('the schema file is draft 2020-12 and strict at the top level', () => {
  const s = JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8'));
  assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(s.additionalProperties, false);
  assert.deepEqual(s.$defs.provenance.enum, ['measured', 'computed', 'estimated']);
  assert.deepEqual(s.$defs.detail.enum, ['full', 'compact']);
});

test('a report with several distinct defects is rejected, listing instancePath + message', () => {
  const r = buildSampleReport() as unknown as Record<string, any>;
  delete r.meta.caveat; // missing required
  r.provenance.arms = 'guessed'; // not in the provenance enum
  r.arms[0].by_tokenizer.cl100k_base.total_tokens.value = Number.NaN; // non-finite
  r.corpora[0].surprise = true; // additional property
  r.live.responses[0].detail = 'medium'; // not in the detail enum
  r.economics.break_even[0].provenance = 'measured'; // break-even is always computed
  const e = rejects(r);
  const text = e.problems.join('\n');
  assert.match(text, /^\/meta must have required property 'caveat'$/m);
  assert.match(text, /^\/provenance\/arms must be equal to one of the allowed values \("measured"\|"computed"\|"estimated"\)$/m);
  assert.match(text, /^\/arms\/0\/by_tokenizer\/cl100k_base\/total_tokens\/value must be a finite number \(got NaN\)$/m);
  assert.match(text, /^\/corpora\/0 must NOT have additional properties \("surprise"\)$/m);
  assert.match(text, /^\/live\/responses\/0\/detail must be equal to one of the allowed values \("full"\|"compact"\)$/m);
  assert.match(text, /^\/economics\/break_even\/0\/provenance must be equal to constant \("computed"\)$/m);
  // the one-line message lists the first five and counts the rest
  assert.match(
    e.message,
    /^invalid report \(\d+ problems\): \/arms\/0\/by_tokenizer\/cl100k_base\/total_tokens\/value must be a finite number/,
  );
  assert.match(e.message, /; \.\.\. and \d+ more$/);
});

test('conditional rules: skipped arm needs a reason, failed live response needs an error, no_break_even needs null calls', () => {
  const a = buildSampleReport();
  const tscg = a.arms.find((x) => x.skipped)!;
  delete tscg.skip_reason;
  assert.match(rejects(a).message, /\/arms\/\d+ must have required property 'skip_reason'/);

  const b = withVariants();
  const bad = b.live!.responses.find((x) => !x.ok)!;
  delete bad.error;
  assert.match(rejects(b).message, /\/live\/responses\/\d+ must have required property 'error'/);

  const c = buildSampleReport();
  c.live!.responses[0] = { ...c.live!.responses[0], ok: true, components: undefined } as never;
  delete (c.live!.responses[0] as { components?: unknown }).components;
  assert.match(rejects(c).message, /\/live\/responses\/0 must have required property 'components'/);

  const d = buildSampleReport();
  Object.assign(d.economics.break_even[0], { no_break_even: true, reason: 'numerator <= 0' });
  assert.match(rejects(d).message, /\/economics\/break_even\/0\/break_even_calls must be null/);

  const e = buildSampleReport();
  e.retrieval.push({ corpus_id: e.corpora[0].id, arm: 'baseline_json', not_scorable: 'x', query_count: 3 } as never);
  assert.match(rejects(e).message, /\/retrieval\/\d+\/query_count boolean schema is false/);
});

test('cross-reference checks the schema cannot express', () => {
  const r: Report = buildSampleReport();
  r.arms[0].corpus_id = 'no-such-corpus';
  r.arms[1].by_tokenizer.cl100k_base.per_tool_tokens.pop();
  r.live!.responses[0].components!.other += 1;
  r.corpora[1].tool_ids.push('extra:tool');
  const n0 = r.corpora[0].tool_count;
  const n1 = r.corpora[1].tool_count;
  const e = rejects(r);
  assert.deepEqual(e.problems, [
    `/corpora/1/tool_ids has ${n1 + 1} ids but tool_count is ${n1}`,
    '/arms/0/corpus_id unknown corpus "no-such-corpus"',
    `/arms/1/by_tokenizer/cl100k_base/per_tool_tokens has ${n0 - 1} entries but the corpus has ${n0} tools`,
    `/live/responses/0/components sum to ${r.live!.responses[0].total_tokens! + 1} but total_tokens is ${r.live!.responses[0].total_tokens}`,
  ]);
});

test('retrieval rows are keyed by (corpus, arm, retriever): a duplicate key is rejected, another retriever is not', () => {
  const r = buildSampleReport();
  const row = r.retrieval.find(isScored)!;
  r.retrieval.push(structuredClone(row));
  const i = r.retrieval.length - 1;
  assert.deepEqual(rejects(r).problems, [
    `/retrieval/${i} duplicate row for corpus ${JSON.stringify(row.corpus_id)}, arm ${JSON.stringify(row.arm)}, retriever "${row.retriever.id}"`,
  ]);
  const other = r.retrieval[i];
  assert.ok(isScored(other));
  other.retriever = { ...other.retriever, id: 'another_retriever' };
  validateReport(r);
});
