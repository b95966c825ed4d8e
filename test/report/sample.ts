/**
 * The sample report for tests: test/data/report.json, produced by a real run
 * (`make sample-report`, scripts/sample-report.mjs; never hand-edited). `withVariants` adds, on
 * a copy, the optional shapes a default run does not produce (a failed live call, LAP executed,
 * a query error, no break-even, ...) so schema coverage and renderer tests see them too.
 * Its per-query rows are in test/data/report.per_query.parquet (the run's tables/per_query.parquet,
 * copied by the same script): buildSampleReport joins them back (pipeline/report/read.ts), so the
 * sample is the report the bench held in memory; `rows: false` gives what report.json holds.
 * The same for report-systems.json (report-systems.per_query.parquet).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LAP_PROVENANCE, LIVE_PROVENANCE } from '../../pipeline/report/provenance.ts';
import type { Report } from '../../pipeline/report/types.ts';
import { isScored } from '../../pipeline/report/types.ts';
import { joinQueryRows, readQueryTable } from '../../pipeline/report/read.ts';
import { sampleQueryTable } from '../../scripts/lib/sample-bench.mjs';

export const SAMPLE_REPORT_PATH = fileURLToPath(new URL('../data/report.json', import.meta.url));
/** test/data/report-systems.json: a real `--system direct --system reference --system broken=cmd:... --scale 10,100` run (same script). */
export const SYSTEMS_SAMPLE_PATH = fileURLToPath(new URL('../data/report-systems.json', import.meta.url));
/** the sample's per-query rows (its run's tables/per_query.parquet) */
export const SAMPLE_QUERY_TABLE_PATH = sampleQueryTable(SAMPLE_REPORT_PATH);
const SYSTEMS_QUERY_TABLE_PATH = sampleQueryTable(SYSTEMS_SAMPLE_PATH);
const sampleRows = await readQueryTable(SAMPLE_QUERY_TABLE_PATH, 'test/data/report.json');
const systemsRows = await readQueryTable(SYSTEMS_QUERY_TABLE_PATH, 'test/data/report-systems.json');
/** Text that must never reach the DOM as markup. */
export const HOSTILE_TEXT = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

let cached: string | undefined;
let cachedSystems: string | undefined;

/** A fresh copy of the committed real-run side-by-side + scale report. */
export function buildSystemsSample(): Report {
  cachedSystems ??= readFileSync(SYSTEMS_SAMPLE_PATH, 'utf8');
  return joinQueryRows(JSON.parse(cachedSystems) as Report, systemsRows, SYSTEMS_QUERY_TABLE_PATH);
}

export interface SampleOptions {
  /** keep the live section (default true) */
  live?: boolean;
  /** join the per-query rows (default true); false = report.json as written */
  rows?: boolean;
}

/** A fresh copy of the committed real-run report (optionally without its live section). */
export function buildSampleReport(opts: SampleOptions = {}): Report {
  cached ??= readFileSync(SAMPLE_REPORT_PATH, 'utf8');
  const r = JSON.parse(cached) as Report;
  if (opts.rows !== false) joinQueryRows(r, sampleRows, SAMPLE_QUERY_TABLE_PATH);
  if (opts.live === false) {
    delete r.live;
    for (const k of [...Object.keys(LIVE_PROVENANCE), ...Object.keys(LAP_PROVENANCE)]) delete r.provenance[k];
  }
  return r;
}

/** The sample plus every optional shape a default run does not produce (still a valid report). */
export function withVariants(r: Report = buildSampleReport()): Report {
  const live = r.live!;
  r.corpora[0].attribution = 'sample attribution (variant)';
  r.corpora[0].hygiene.degenerate.count = 1;
  r.corpora[0].hygiene.degenerate.examples = [
    { tool_id: r.corpora[0].tool_ids[0], description: 'x', rule: r.corpora[0].hygiene.degenerate.rules[1] },
  ];
  r.corpora[0].hygiene.invalid_utf8 = { count: 1, tool_ids: [r.corpora[0].tool_ids[0]] };
  // a corpus whose counting cut an over-long run (pipeline/bench/token-bounds.ts)
  r.corpora[0].token_bounds = {
    run_limit: 1024,
    bound: 'estimate',
    max_error_per_cut: 1,
    note: 'variant: runs past the limit were cut',
    fields_total: 1,
    fields: [{ tool_id: r.corpora[0].tool_ids[0], field: 'description', runs: 1, longest_run: 5000, cuts: 4 }],
    arms: [{ arm: 'baseline_json', texts: 2, runs: 2, cuts: 8 }],
  };
  // live: run health, style and what was deliberately not computed
  Object.assign(live, {
    style: 'discovery',
    style_reason: 'variant',
    discovery: { status: 'measured', reason: 'variant' },
    calls: { readiness: { n: 1, errors: 0 }, warmup: { n: 2, errors: 1 }, measured: { n: 10, errors: 1 } },
    status: {
      state: 'failed',
      error_rate: 0.1,
      max_error_rate: 0,
      measured_calls: 10,
      failed_calls: 1,
      reason: 'variant: 1 of 10 measured calls failed',
    },
    cheap_call: {
      method: 'tools/list',
      detail: 'full',
      n: 3,
      warmup: 1,
      runs: 3,
      p50_ms: 1,
      p95_ms: 2,
      p99_ms: 2,
      max_ms: 2,
      mean_ms: 1.5,
    },
    passthrough: {
      tokenizer: 'cl100k_base',
      matched: 1,
      unmatched_upstream: ['a:b'],
      extra_proxy: ['x'],
      prefix_overhead_tokens: 3,
      per_tool: [{ upstream: 'a:c', proxy_name: 'a__c', how: 'suffix + server name', upstream_tokens: 10, proxy_tokens: 13 }],
    },
    not_computed: [{ what: 'variant', reason: 'variant reason' }],
  });
  live.target.transport = 'streamable-http';
  live.latency[0].errors = 1;
  live.response_summary[0].errors = 1;
  live.retrieval[0].not_computed_reason = 'variant: all discovery calls failed';
  const scored = r.retrieval.filter(isScored)[0];
  if (live.retrieval[0].per_query) Object.assign(live.retrieval[0].per_query[0], { error: 'variant: proxy call failed' });
  if (scored.per_query)
    Object.assign(scored.per_query[0], {
      error: 'variant: search failed',
      first_relevant_rank: null,
      recall_at_1: 0,
      recall_at_3: 0,
      recall_at_5: 0,
      recall_at_10: 0,
      rr: 0,
      ndcg_at_10: 0,
      ap: 0,
      comprehensive_at_5: 0,
      top: [],
    });
  const arm = r.arms.find((a) => !a.skipped && a.arm !== 'baseline_json')!;
  arm.skip_examples = [{ tool_id: r.corpora[0].tool_ids[0], error: 'variant: cannot encode' }];
  arm.skipped_tools = 1;
  const failed = live.responses[0];
  delete failed.total_tokens;
  delete failed.result_count;
  delete failed.components;
  Object.assign(failed, { ok: false, error: 'variant: tool call timed out' });
  live.errors.push({ where: `query:${failed.query_id}/${failed.detail}`, message: 'variant: tool call timed out' });
  live.lap = {
    executed: true,
    version: '0.8.0',
    grade: 'C',
    menu_tokens: 600,
    in_house_menu_tokens: 444,
    divergence_pct: 35.1,
    warning: 'LAP menu tokens differ from ours by 35.1% (> 15%)',
    artifact_path: 'results/lap.json',
  };
  Object.assign(r.provenance, LAP_PROVENANCE);
  live.headline_reason = 'upstream everything:echo has no inputSchema';
  live.authoritative_headline = false;
  live.economics.curves = [
    { corpus_id: r.corpora[0].id, arm: 'proxy_full', tokenizer: 'cl100k_base', calls: 0, full_menu_tokens: 10, discovery_tokens: 5 },
  ];
  live.menus[0].proxy_menu_tokens.ci95 = [1300, 1320];
  live.menus[0].full_menu_tokens.ci95 = [9400, 9440];
  live.latency[0].mean_ms ??= 1;
  for (const b of [r.economics.break_even[0], live.economics.break_even[0]]) {
    Object.assign(b, { no_break_even: true, break_even_calls: null, reason: 'full menu is not larger than the discovery menu' });
  }
  // a lossy result rendering (reported, kept out of savings), a failed and a proxy-only live result call
  const lossy = r.results!.rows.find((x) => x.arm === 'toon' && !x.skipped)!;
  Object.assign(lossy, { round_trip: false, round_trip_error: 'variant: $[0].size: 12 became "12"', savings_vs_json_pct: null });
  const calls = live.result_cost!.rows;
  Object.assign(calls[0], { ok: false, error: 'variant: tool error: ENOENT', overhead_tokens: null });
  delete calls[0].proxy;
  Object.assign(calls[1], { direct_error: 'variant: no direct connection to upstream', overhead_tokens: null });
  delete calls[1].direct;
  // a proxy whose call tool takes other argument names, a result call routed by the proxy's own call_with hint
  Object.assign(live.result_cost!, {
    call_args: { name: 'name', arguments: 'args' },
    call_with_used: 1,
    missing_call_tool: 'variant: the proxy lists no "call_tool" tool (it lists: retrieve_tools, call_tool_read)',
  });
  Object.assign(calls[calls.length - 1], { call_tool: 'call_tool_read', call_with: true });
  return r;
}

/** The systems sample whose proxy block carries every optional live shape (the live variants above). */
export function systemsWithVariants(): Report {
  const r = buildSystemsSample();
  const block = r.systems!.find((s) => s.live !== undefined)!;
  block.live = withVariants().live!;
  return r;
}
