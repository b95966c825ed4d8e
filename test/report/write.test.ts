import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { parquetReadObjects } from 'hyparquet';
import { writeReport } from '../../pipeline/report/write.ts';
import { REPORT_SECTIONS } from '../../pipeline/sections.ts';
import { ReportValidationError } from '../../pipeline/report/validate.ts';
import { isScored, type RetrievalScored } from '../../pipeline/report/types.ts';
import { withoutQueryRows } from '../../pipeline/report/file.ts';
import { readReport } from '../../pipeline/report/read.ts';
import { UserError } from '../../pipeline/types.ts';
import { ARMS } from '../../arms/registry.ts';
import { TOKENIZER_NAMES } from '../../pipeline/tokens/tokenizer.ts';
import { buildSampleReport, buildSystemsSample, withVariants } from './sample.ts';

const work = mkdtempSync(join(tmpdir(), 'mcpgauge-write-'));
after(() => rmSync(work, { recursive: true, force: true }));

function arrow(path: string) {
  return tableFromIPC(readFileSync(path));
}
async function parquet(path: string): Promise<Record<string, unknown>[]> {
  const b = readFileSync(path);
  return parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer });
}

test('writeReport writes report.json, Arrow + Parquet tables and the dashboard; tables read back equal', async () => {
  const report = withVariants();
  // a tool an arm could not encode is a null in per_tool_tokens
  const toon = report.arms.filter((a) => a.arm === 'toon_listing');
  for (const a of toon) for (const s of Object.values(a.by_tokenizer)) s.per_tool_tokens[0] = null;
  const dir = join(work, 'out');
  const w = await writeReport(report, dir, REPORT_SECTIONS);

  const json = readFileSync(w.report, 'utf8');
  assert.equal(json, `${JSON.stringify({ ...withoutQueryRows(report), tables: JSON.parse(json).tables }, null, 2)}\n`);
  assert.ok(json.endsWith('}\n') && json.startsWith('{\n  "report_version": 1,'));
  assert.deepEqual(readdirSync(join(dir, 'tables')).sort(), [
    'arms.arrow',
    'arms.parquet',
    'live_responses.arrow',
    'live_responses.parquet',
    'per_query.arrow',
    'per_query.parquet',
    'per_tool.arrow',
    'per_tool.parquet',
    'result_arms.arrow',
    'result_arms.parquet',
  ]);
  assert.equal(w.paths.length, 12);
  assert.equal(w.paths.at(-1), w.report);
  // no temp files left behind
  const temps = (d: string) => readdirSync(d).filter((f) => f.endsWith('.tmp') || /\.tmp-\d+-[0-9a-f]{8}$/.test(f));
  assert.deepEqual([...temps(dir), ...temps(join(dir, 'tables'))], []);
  assert.match(readFileSync(w.dashboard ?? 'no dashboard written', 'utf8'), /^<!doctype html>/);

  // per_tool: every tool of every corpus x non-skipped arm x tokenizer
  const toolsOf = (id: string) => report.corpora.find((c) => c.id === id)!.tool_count;
  const expectedPerTool = report.arms
    .filter((a) => !a.skipped)
    .reduce((n, a) => n + toolsOf(a.corpus_id) * Object.keys(a.by_tokenizer).length, 0);
  // the sample ran every registered listing arm on both corpora (37 + 4 tools); a skipped arm (tscg) has no per-tool rows
  assert.deepEqual(
    [...new Set(report.arms.map((a) => a.arm))].sort(),
    [...ARMS],
    'the sample report holds every registered arm (make sample-report)',
  );
  const armsRun = new Set(report.arms.filter((a) => !a.skipped).map((a) => a.arm)).size;
  const armsSkipped = new Set(report.arms.filter((a) => a.skipped).map((a) => a.arm)).size;
  assert.ok(armsRun >= 5 && armsSkipped >= 1, `${armsRun} arms run, ${armsSkipped} skipped`);
  assert.equal(expectedPerTool, (37 + 4) * armsRun * TOKENIZER_NAMES.length);
  assert.equal(w.tables.per_tool.rows, expectedPerTool);
  const pt = arrow(w.tables.per_tool.arrow);
  assert.equal(pt.numRows, expectedPerTool);
  assert.deepEqual(
    pt.schema.fields.map((f) => `${f.name}:${f.type}`),
    ['tool_id:Utf8', 'corpus:Utf8', 'arm:Utf8', 'tokenizer:Utf8', 'tokens:Int32'],
  );
  const ptp = await parquet(w.tables.per_tool.parquet);
  assert.equal(ptp.length, expectedPerTool);
  // compare every row of both files with the report
  const expected: { tool_id: string; corpus: string; arm: string; tokenizer: string; tokens: number | null }[] = [];
  for (const a of report.arms) {
    const ids = report.corpora.find((c) => c.id === a.corpus_id)!.tool_ids;
    for (const [tok, s] of Object.entries(a.by_tokenizer))
      s.per_tool_tokens.forEach((t, i) => expected.push({ tool_id: ids[i], corpus: a.corpus_id, arm: a.arm, tokenizer: tok, tokens: t }));
  }
  const fromArrow = pt.toArray().map((r) => ({ ...r.toJSON() }));
  assert.deepEqual(fromArrow, expected);
  assert.deepEqual(
    ptp.map((r) => ({ ...r })),
    expected,
  );
  // the tool toon_listing could not encode is a null, not a zero
  const nulls = expected.filter((r) => r.tokens === null);
  assert.equal(nulls.length, 4); // 2 corpora x 2 tokenizers, one null tool each
  assert.ok(nulls.every((r) => r.arm === 'toon_listing'));

  // per_query: offline scored rows + live rows
  const offlineRows = report.retrieval.filter(isScored).reduce((n, r) => n + r.per_query!.length, 0);
  const liveRows = report.live!.retrieval.reduce((n, r) => n + r.per_query!.length, 0);
  assert.ok(offlineRows > 0 && liveRows > 0);
  const pq = arrow(w.tables.per_query.arrow);
  const pqp = await parquet(w.tables.per_query.parquet);
  assert.equal(pq.numRows, offlineRows + liveRows);
  assert.equal(pqp.length, offlineRows + liveRows);
  const baseRow = report.retrieval.find((r) => isScored(r) && r.arm === 'baseline_json') as RetrievalScored;
  const qid = baseRow.per_query![3].query_id;
  const q4 = pqp.find((r) => r.arm === 'baseline_json' && r.query_id === qid)!;
  const q4src = baseRow.per_query![3] as unknown as Record<string, unknown>;
  assert.equal(q4.retriever, baseRow.retriever.id);
  assert.equal(q4.query, q4src.query);
  assert.equal(q4.first_relevant_rank, q4src.first_relevant_rank);
  assert.equal(q4.rr, q4src.rr);
  assert.deepEqual(JSON.parse(q4.top as string), q4src.top);
  const liveErr = report.live!.retrieval[0];
  const errRow = pqp.find((r) => r.source === `live_${liveErr.detail}` && r.query_id === liveErr.per_query![0].query_id)!;
  assert.equal(errRow.error, 'variant: proxy call failed');
  assert.equal(errRow.retriever, null);
  const offErr = pqp.find((r) => r.source === 'offline' && r.error !== null)!;
  assert.equal(offErr.error, 'variant: search failed');
  assert.equal(offErr.first_relevant_rank, null);
  assert.equal(
    pq
      .getChild('source')!
      .toArray()
      .filter((s: string) => s === 'offline').length,
    offlineRows,
  );

  // arms: one row per corpus x arm x tokenizer, a skipped arm is one row with null tokenizer
  const ar = arrow(w.tables.arms.arrow);
  const arp = await parquet(w.tables.arms.parquet);
  assert.equal(ar.numRows, 2 * (armsRun * TOKENIZER_NAMES.length + armsSkipped)); // 2 corpora x (arms run x tokenizers + one row per skipped arm)
  assert.equal(arp.length, ar.numRows);
  const tscg = arp.filter((r) => r.arm === 'tscg');
  assert.deepEqual(
    tscg.map((r) => [r.corpus, r.tokenizer, r.skipped, r.skip_reason, r.total_tokens]),
    [
      ['corpus-npm4-v1', null, true, 'skipped: @tscg/core not installed', null],
      ['proxy-menu-v1', null, true, 'skipped: @tscg/core not installed', null],
    ],
  );
  const base = report.arms.find((a) => a.arm === 'compact_sig' && a.corpus_id === 'proxy-menu-v1')!.by_tokenizer.o200k_base;
  const row = arp.find((r) => r.arm === 'compact_sig' && r.corpus === 'proxy-menu-v1' && r.tokenizer === 'o200k_base')!;
  assert.equal(row.total_tokens, base.total_tokens.value);
  assert.equal(row.savings_vs_baseline_pct, base.savings_vs_baseline_pct.value);
  assert.equal(row.mean, base.mean);
  const arrowRow = ar.toArray().find((r) => r.arm === 'compact_sig' && r.corpus === 'proxy-menu-v1' && r.tokenizer === 'o200k_base')!;
  assert.equal(arrowRow.p95, base.p95);
  assert.equal(arrowRow.skipped, false);
  assert.equal(arrowRow.index_altering, true);
  const arrowTscg = ar
    .toArray()
    .filter((r) => r.arm === 'tscg')
    .map((r) => [r.skipped, r.tokenizer, r.total_tokens, r.retry_rate]);
  assert.deepEqual(arrowTscg, [
    [true, null, null, 0],
    [true, null, null, 0],
  ]);
  // unicode survives the hand-built Utf8 buffers
  const uni = buildSampleReport({ live: false });
  uni.corpora[0].tool_ids[0] = 'fs:lire_le_fichier_é_✓_🚀';
  const wu = await writeReport(uni, join(work, 'unicode'), REPORT_SECTIONS);
  assert.equal(arrow(wu.tables.per_tool.arrow).get(0)!.tool_id, 'fs:lire_le_fichier_é_✓_🚀');
  assert.equal((await parquet(wu.tables.per_tool.parquet))[0].tool_id, 'fs:lire_le_fichier_é_✓_🚀');

  // live responses: every row, components included
  const lr = arrow(w.tables.live_responses.arrow);
  const lrp = await parquet(w.tables.live_responses.parquet);
  assert.equal(lr.numRows, report.live!.responses.length);
  assert.equal(lrp.length, report.live!.responses.length);
  const failed = lrp.filter((r) => r.ok === false);
  assert.equal(failed.length, 1); // the variant's failed call
  assert.ok(failed.every((r) => r.total_tokens === null && r.input_schemas === null));
  const ok = lrp.find((r) => r.ok === true)!;
  assert.equal(
    (ok.input_schemas as number) +
      (ok.descriptions as number) +
      (ok.usage_instructions as number) +
      (ok.metadata as number) +
      (ok.other as number),
    ok.total_tokens,
  );

  // result arms: one row per fixture x arm x tokenizer; skipped rows carry the reason, no tokens
  const rr = await parquet(w.tables.result_arms.parquet);
  assert.equal(rr.length, report.results!.rows.length);
  assert.equal(arrow(w.tables.result_arms.arrow).numRows, rr.length);
  const skippedCsv = rr.filter((r) => r.arm === 'csv_when_tabular' && r.payload_class === 'non_tabular');
  assert.ok(
    skippedCsv.length > 0 &&
      skippedCsv.every((r) => r.skipped === true && r.tokens === null && /^not tabular: /.test(String(r.skip_reason))),
  );
  const src = report.results!.rows.find((r) => r.arm === 'toon' && r.tokenizer === 'o200k_base' && r.payload_class === 'tabular')!;
  const got = rr.find((r) => r.arm === 'toon' && r.tokenizer === 'o200k_base' && r.fixture_id === src.fixture_id)!;
  assert.deepEqual(
    [got.tokens, got.json_tokens, got.savings_vs_json_pct, got.round_trip],
    [src.tokens, src.json_tokens, src.savings_vs_json_pct, true],
  );
});

test('no live section -> no live_responses table', async () => {
  const w = await writeReport(buildSampleReport({ live: false }), join(work, 'offline'), REPORT_SECTIONS);
  assert.deepEqual(Object.keys(w.tables).sort(), ['arms', 'per_query', 'per_tool', 'result_arms']);
  const r = buildSampleReport({ live: false });
  assert.equal(
    arrow(w.tables.per_query.arrow).numRows,
    r.retrieval.filter(isScored).reduce((n, x) => n + x.per_query!.length, 0),
  );
});

test('an invalid report is an error and nothing is written', async () => {
  const r = buildSampleReport();
  (r.meta as { caveat?: string }).caveat = 'short';
  const dir = join(work, 'invalid');
  await assert.rejects(
    writeReport(r, dir, REPORT_SECTIONS),
    (e: unknown) =>
      e instanceof ReportValidationError && /\/meta\/caveat must NOT have fewer than 10 characters/.test((e as Error).message),
  );
  assert.equal(existsSync(dir), false);
});

test('report.json holds no per-query rows: they are in tables/per_query, named by the tables index, and readReport puts back exactly the rows the bench held', async () => {
  const report = withVariants();
  const dir = join(work, 'rows');
  const w = await writeReport(report, dir, REPORT_SECTIONS);
  const json = readFileSync(w.report, 'utf8');
  const file = JSON.parse(json);
  assert.ok(!/"per_query": \[/.test(json), 'no per_query array in report.json');
  assert.ok(
    file.retrieval
      .filter((x: { metrics?: unknown }) => x.metrics)
      .every((x: { query_ids_sha256: string }) => /^[0-9a-f]{64}$/.test(x.query_ids_sha256)),
  );
  assert.equal(file.tables.per_query.parquet, 'tables/per_query.parquet');
  assert.equal(file.tables.per_query.rows, w.tables.per_query.rows);
  assert.deepEqual(
    file.tables.per_query.columns.map((c: { name: string }) => c.name),
    arrow(w.tables.per_query.arrow).schema.fields.map((f) => f.name),
  );
  for (const [name, t] of Object.entries(w.tables)) assert.equal(join(dir, file.tables[name].arrow), t.arrow);
  // read back whole: the in-memory report, row for row (the variants' error rows included)
  const back = await readReport(w.report);
  delete back.tables;
  delete report.tables;
  assert.deepEqual(back, report);
  // a table of another run is refused, naming the file
  const other = withVariants();
  other.retrieval.filter(isScored)[0].per_query!.reverse();
  other.retrieval.filter(isScored)[0].query_ids_sha256 = (await import('../../pipeline/report/rows.ts')).queryIdsDigest(
    other.retrieval.filter(isScored)[0].per_query!,
  );
  const dir2 = join(work, 'rows-other');
  await writeReport(other, dir2, REPORT_SECTIONS);
  const { copyFileSync } = await import('node:fs');
  copyFileSync(join(dir2, 'tables', 'per_query.parquet'), join(dir, 'tables', 'per_query.parquet'));
  await assert.rejects(
    readReport(w.report),
    (e: unknown) =>
      e instanceof UserError &&
      /per_query\.parquet: the per-query rows for offline .* are not the queries the report scored/.test((e as Error).message),
  );
  rmSync(join(dir, 'tables', 'per_query.parquet'));
  await assert.rejects(
    readReport(w.report),
    (e: unknown) =>
      e instanceof UserError &&
      /per_query\.parquet: cannot read the per-query table of .*report\.json \(ENOENT\)/.test((e as Error).message),
  );
});

test("systems side by side: each system's live rows go to tables/per_query with its name and come back", async () => {
  const report = buildSystemsSample();
  const dir = join(work, 'systems');
  const w = await writeReport(report, dir, REPORT_SECTIONS);
  const rows = await parquet(w.tables.per_query.parquet);
  const systems = report.systems!.filter((s) => s.live);
  assert.ok(systems.length > 0);
  for (const s of systems)
    assert.equal(
      rows.filter((r) => r.system === s.name).length,
      s.live!.retrieval.reduce((n, x) => n + x.query_count, 0),
      s.name,
    );
  const back = await readReport(w.report);
  delete back.tables;
  delete report.tables;
  assert.deepEqual(back, report);
});
