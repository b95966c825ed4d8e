/**
 * Type/schema agreement. The sample report (a real run, plus `withVariants` for optional
 * shapes a default run does not produce) is typed as `Report` (so TypeScript rejects fields
 * the type does not have) and validates against the schema (additionalProperties: false rejects
 * fields the schema does not have). This test closes the loop: every property path the schema
 * declares occurs in the samples, so no schema field is missing from the type either.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { REPORT_SCHEMA_PATH, validateReport } from '../../pipeline/report/validate.ts';
import type { Report } from '../../pipeline/report/types.ts';
import { withoutQueryRows } from '../../pipeline/report/file.ts';
import { buildSampleReport, buildSystemsSample, systemsWithVariants, withVariants } from './sample.ts';

type Schema = { [k: string]: any };

/** Figure positions are leaves here; the Figure's own fields are checked once, below. */
const FIGURE_REF = '#/$defs/figure';
/** Free-form JSON objects (run options, retriever params) are leaves too. */
const freeForm = new Set<string>();

function schemaPaths(root: Schema, figures: Set<string>): Set<string> {
  const out = new Set<string>();
  const seen = new Set<string>();
  const walk = (s: Schema | boolean | undefined, path: string) => {
    if (!s || typeof s !== 'object') return;
    if (s.$ref === FIGURE_REF) {
      figures.add(path);
      return;
    }
    if (s.$ref === '#/$defs/json_object') {
      freeForm.add(path);
      return;
    }
    if (s.$ref) {
      const key = `${s.$ref}@${path}`;
      if (seen.has(key)) return;
      seen.add(key);
      const def = s.$ref.replace('#/$defs/', '');
      walk(root.$defs[def], path);
      return;
    }
    for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) {
      if ((v as unknown) === false) continue;
      out.add(`${path}/${k}`);
      walk(v, `${path}/${k}`);
    }
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      out.add(`${path}/*`);
      walk(s.additionalProperties, `${path}/*`);
    }
    if (s.items) walk(s.items, `${path}/[]`);
    for (const k of ['then', 'else']) if (s[k]) walk(s[k], path);
  };
  walk(root, '');
  return out;
}

function instancePaths(
  v: unknown,
  path: string,
  out: Set<string>,
  mapPaths: Set<string>,
  figures: Set<string>,
  figureKeys: Set<string>,
): void {
  if (figures.has(path)) {
    for (const k of Object.keys(v as object)) figureKeys.add(k);
    return;
  }
  if (freeForm.has(path)) return;
  if (Array.isArray(v)) v.forEach((x) => instancePaths(x, `${path}/[]`, out, mapPaths, figures, figureKeys));
  else if (v && typeof v === 'object') {
    const isMap = mapPaths.has(path);
    for (const [k, x] of Object.entries(v)) {
      const p = `${path}/${isMap ? '*' : k}`;
      out.add(p);
      instancePaths(x, p, out, mapPaths, figures, figureKeys);
    }
  }
}

test('every property the schema declares is carried by the (typed) sample reports', () => {
  const schema = JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8'));
  const figures = new Set<string>();
  const declared = schemaPaths(schema, figures);
  assert.ok(figures.has('/arms/[]/by_tokenizer/*/total_tokens') && figures.has('/retrieval/[]/metrics/*'));
  // objects keyed by free names (tokenizer, section, metric) appear as "*" in schema paths
  const mapPaths = new Set([...declared].filter((p) => p.endsWith('/*')).map((p) => p.slice(0, -2)));
  const withLap: Report = withVariants();
  validateReport(withLap);
  const present = new Set<string>();
  const figureKeys = new Set<string>();
  // the real runs execute LAP (lap-score venv); a machine without Python gets the skipped shape
  const lapSkipped = buildSampleReport();
  lapSkipped.live!.lap = { executed: false, skip_reason: 'skipped: python3 not found on PATH (variant)' };
  const systemsLapSkipped = buildSystemsSample();
  for (const b of systemsLapSkipped.systems ?? []) if (b.live) b.live.lap = { executed: false, skip_reason: 'skipped: variant' };
  for (const r of [
    buildSampleReport(),
    withLap,
    validateReport(lapSkipped),
    validateReport(buildSystemsSample()),
    validateReport(systemsWithVariants()),
    validateReport(systemsLapSkipped),
  ])
    instancePaths(withoutQueryRows(r), '', present, mapPaths, figures, figureKeys); // report.json's shape: the rows are in tables/per_query
  assert.deepEqual([...figureKeys].sort(), Object.keys(schema.$defs.figure.properties).sort());
  const missing = [...declared].filter((p) => !present.has(p)).sort();
  assert.deepEqual(missing, [], 'schema properties never exercised by the sample report');
  const undeclared = [...present].filter((p) => !declared.has(p)).sort();
  assert.deepEqual(undeclared, []);
});
