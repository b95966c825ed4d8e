/**
 * A realistic, deterministic sample report for tests (report, dashboard, and other engineers'
 * tests that need a valid Report). Numbers are made up but internally consistent: per-tool
 * arrays align with corpus tool ids, savings follow from totals, components sum to totals,
 * break-even follows the formula. Some text carries HTML to prove the dashboard escapes it.
 */
import { LAP_PROVENANCE, LIVE_PROVENANCE, OFFLINE_PROVENANCE } from '../../pipeline/report/provenance.ts';
import type {
  ArmReport,
  BreakEvenCurvePoint,
  BreakEvenRow,
  CorpusReport,
  Figure,
  LiveReport,
  QueryRow,
  RankingAgreement,
  Report,
  RetrievalMetrics,
  RetrievalReport,
  SessionEstimateRow,
} from '../../pipeline/report/types.ts';
import { percentile, mean, seededRandom } from '../../pipeline/util/stats.ts';
import { RESULT_COST_METHOD, taskSessions, type LiveResultCost } from '../../pipeline/live/results.ts';

export const SAMPLE_TOKENIZERS = ['cl100k_base', 'o200k_base'] as const;
export const SAMPLE_ARMS = ['baseline_json', 'compact_json', 'compact_sig', 'toon_listing', 'tron_dedup', 'tscg'] as const;
/** Text that must never reach the DOM as markup. */
export const HOSTILE_TEXT = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

export interface SampleOptions {
  /** include the live section (default true) */
  live?: boolean;
  /** tools in the main corpus (default 24) */
  tools?: number;
  /** queries in the golden set (default 12) */
  queries?: number;
}

const fig = (value: number, unit: string, provenance: Figure['provenance'], extra: Partial<Figure> = {}): Figure => ({
  value,
  unit,
  provenance,
  ...extra,
});

const ARM_FACTOR: Record<string, number> = {
  baseline_json: 1,
  compact_json: 0.82,
  compact_sig: 0.41,
  toon_listing: 0.7,
  tron_dedup: 0.63,
};

function round(x: number, d = 4): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}

function metrics(rows: QueryRow[], rnd: () => number): RetrievalMetrics {
  const n = rows.length;
  const m = (v: number): Figure => {
    const half = 0.04 + rnd() * 0.08;
    return fig(round(v), 'ratio', 'measured', { n, ci95: [round(Math.max(0, v - half)), round(Math.min(1, v + half))] });
  };
  const avg = (f: (r: QueryRow) => number) => mean(rows.map(f));
  return {
    recall_at_1: m(avg((r) => r.recall_at_1 ?? 0)),
    recall_at_3: m(avg((r) => r.recall_at_3 ?? 0)),
    recall_at_5: m(avg((r) => r.recall_at_5)),
    recall_at_10: m(avg((r) => r.recall_at_10 ?? 0)),
    mrr: m(avg((r) => r.rr)),
    ndcg_at_10: m(avg((r) => r.ndcg_at_10)),
    map: m(avg((r) => r.ap)),
    comprehensiveness_at_5: m(avg((r) => r.comprehensive_at_5 ?? 0)),
  };
}

function queryRows(toolIds: string[], nq: number, quality: number, rnd: () => number, prefix = 'q'): QueryRow[] {
  const rows: QueryRow[] = [];
  for (let i = 0; i < nq; i++) {
    const gold = toolIds[(i * 7) % toolIds.length];
    const r = rnd();
    // rank of the gold tool: good arms find it early; some queries are weak on purpose
    const rank = r < quality ? 1 + Math.floor(rnd() * 3) : r < quality + 0.2 ? 4 + Math.floor(rnd() * 6) : null;
    // ten neighbours of the gold tool (a window, so big samples stay linear)
    const start = ((i * 7) % toolIds.length) + 1 + (i % 5);
    const top: string[] = [];
    for (let j = 0; top.length < 10 && j < toolIds.length - 1; j++) top.push(toolIds[(start + j) % toolIds.length]);
    if (rank !== null) top.splice(rank - 1, 0, gold);
    top.length = Math.min(top.length, 10);
    const hit = (k: number) => (rank !== null && rank <= k ? 1 : 0);
    const rr = rank === null ? 0 : 1 / rank;
    rows.push({
      query_id: `${prefix}${String(i + 1).padStart(2, '0')}`,
      query: i === 3 ? `find the tool that handles ${HOSTILE_TEXT}` : `how do I ${['list files', 'read a note', 'search memory', 'plan steps', 'echo text', 'fetch a page'][i % 6]} (#${i + 1})`,
      first_relevant_rank: rank,
      recall_at_1: hit(1),
      recall_at_3: hit(3),
      recall_at_5: hit(5),
      recall_at_10: hit(10),
      rr: round(rr),
      ndcg_at_10: round(rank === null ? 0 : 1 / Math.log2(rank + 1)),
      ap: round(rr),
      comprehensive_at_5: hit(5),
      top,
      gold: [gold],
    });
  }
  return rows;
}

export function buildSampleReport(opts: SampleOptions = {}): Report {
  const nTools = opts.tools ?? 24;
  const nq = opts.queries ?? 12;
  const rnd = seededRandom(42);
  const servers = ['filesystem', 'memory', 'everything', 'sequential-thinking', 'fixture'];
  const toolIds = Array.from({ length: nTools }, (_, i) => `${servers[i % servers.length]}:tool_${String(i).padStart(2, '0')}`);
  const extraIds = Array.from({ length: 40 }, (_, i) => `market-${i % 8}:op_${i}`);

  const corpora: CorpusReport[] = [
    {
      id: 'corpus-npm4-v1',
      name: 'npm reference servers + fixture',
      version: 'corpus-npm4-v1',
      tool_count: nTools,
      license: 'MIT',
      committed: true,
      format: 'mcpgauge',
      source: 'datasets/corpus-npm4-v1.tools.json',
      tool_ids: toolIds,
      hygiene: {
        degenerate: {
          count: 2,
          rules: ['description empty or whitespace-only', 'description shorter than 20 characters', 'description matches stub pattern ^Proxy for '],
          examples: [
            { tool_id: toolIds[1], description: 'List notes', rule: 'description shorter than 20 characters' },
            { tool_id: toolIds[2], description: HOSTILE_TEXT, rule: 'description matches stub pattern ^Proxy for ' },
          ],
        },
        schema_size: { unit: 'bytes', tools_with_schema: nTools - 1, tools_without_schema: 1, min: 38, mean: 412.5, p50: 301, p95: 1204, max: 2210 },
        duplicate_schemas: {
          distinct: nTools - 3,
          tools_sharing: 4,
          groups: [
            { schema_sha256: 'a'.repeat(64), bytes: 55, tool_count: 2, tool_ids: [toolIds[3], toolIds[8]] },
            { schema_sha256: 'b'.repeat(64), bytes: 120, tool_count: 2, tool_ids: [toolIds[4], toolIds[9]] },
          ],
        },
      },
    },
    {
      id: 'livemcptool',
      name: 'LiveMCPTool (sample)',
      version: 'livemcptool@ddea2d24',
      tool_count: extraIds.length,
      license: 'Apache-2.0',
      attribution: 'ICIP/LiveMCPBench',
      committed: false,
      format: 'livemcptool',
      source: '.cache/corpora/livemcptool/tools.json',
      tool_ids: extraIds,
      hygiene: {
        degenerate: { count: 0, rules: ['description shorter than 20 characters'], examples: [] },
        schema_size: { unit: 'bytes', tools_with_schema: 40, tools_without_schema: 0, min: 20, mean: 150, p50: 140, p95: 300, max: 320 },
        duplicate_schemas: { distinct: 40, tools_sharing: 0, groups: [] },
      },
    },
  ];

  // per-tool base sizes (baseline cl100k) per corpus
  const base = new Map<string, number[]>();
  for (const c of corpora) base.set(c.id, c.tool_ids.map(() => 60 + Math.floor(rnd() * 400)));

  const arms: ArmReport[] = [];
  const totals = new Map<string, number>(); // corpus|tokenizer|arm -> total
  for (const c of corpora) {
    for (const arm of SAMPLE_ARMS) {
      if (arm === 'tscg') {
        arms.push({
          arm, corpus_id: c.id, skipped: true, skip_reason: 'skipped: @tscg/core not installed', index_altering: true,
          lower_bound: false, retry_rate: 0, skipped_tools: 0, skip_examples: [], by_tokenizer: {},
        });
        continue;
      }
      const by: ArmReport['by_tokenizer'] = {};
      const skipIdx = arm === 'toon_listing' ? new Set([5]) : new Set<number>();
      for (const tok of SAMPLE_TOKENIZERS) {
        const tf = tok === 'o200k_base' ? 0.93 : 1;
        const per = base.get(c.id)!.map((b, i) => (skipIdx.has(i) ? null : Math.max(5, Math.round(b * ARM_FACTOR[arm] * tf * (0.9 + ((i * 13) % 7) / 30)))));
        const vals = per.filter((v): v is number => v !== null);
        const total = vals.reduce((a, b) => a + b, 0) + (arm === 'toon_listing' ? 12 : 2);
        totals.set(`${c.id}|${tok}|${arm}`, total);
        const baseTotal = totals.get(`${c.id}|${tok}|baseline_json`)!;
        const heaviest = per
          .map((t, i) => ({ tool_id: c.tool_ids[i], tokens: t ?? -1 }))
          .filter((x) => x.tokens >= 0)
          .sort((a, b) => b.tokens - a.tokens || (a.tool_id < b.tool_id ? -1 : 1))
          .slice(0, 10);
        by[tok] = {
          total_tokens: fig(total, 'tokens', 'measured', { tokenizer: tok, n: vals.length }),
          mean: round(mean(vals), 2),
          p50: percentile(vals, 50),
          p95: percentile(vals, 95),
          max: Math.max(...vals),
          savings_vs_baseline_pct: fig(round((100 * (baseTotal - total)) / baseTotal, 2), '%', 'computed', { tokenizer: tok }),
          heaviest,
          per_tool_tokens: per,
        };
      }
      arms.push({
        arm,
        corpus_id: c.id,
        description: `${arm} rendering`,
        skipped: false,
        index_altering: arm === 'compact_sig' || arm === 'tron_dedup',
        lower_bound: arm === 'compact_sig',
        retry_rate: arm === 'toon_listing' ? 0.05 : 0,
        skipped_tools: skipIdx.size,
        skip_examples: [...skipIdx].map((i) => ({ tool_id: c.tool_ids[i], error: 'non-tabular nested array cannot be encoded' })),
        by_tokenizer: by,
      });
    }
  }

  const ranking_agreement: RankingAgreement[] = corpora.map((c) => {
    const by: Record<string, string[]> = {};
    for (const tok of SAMPLE_TOKENIZERS) {
      by[tok] = SAMPLE_ARMS.filter((a) => totals.has(`${c.id}|${tok}|${a}`)).sort(
        (a, b) => totals.get(`${c.id}|${tok}|${a}`)! - totals.get(`${c.id}|${tok}|${b}`)! || (a < b ? -1 : 1),
      );
    }
    return { corpus_id: c.id, by_tokenizer: by, same: JSON.stringify(by.cl100k_base) === JSON.stringify(by.o200k_base) };
  });

  const retrieval: RetrievalReport[] = [];
  const quality: Record<string, number> = { baseline_json: 0.6, compact_json: 0.6, compact_sig: 0.5, toon_listing: 0.6, tron_dedup: 0.55 };
  for (const arm of SAMPLE_ARMS) {
    if (arm === 'tscg') continue;
    const rows = queryRows(toolIds, nq, quality[arm], seededRandom(7 + arm.length));
    if (arm === 'compact_sig') rows[nq - 1] = { ...rows[nq - 1], error: 'index build failed for this query', top: [], first_relevant_rank: null, recall_at_1: 0, recall_at_3: 0, recall_at_5: 0, recall_at_10: 0, rr: 0, ndcg_at_10: 0, ap: 0, comprehensive_at_5: 0 };
    retrieval.push({
      corpus_id: 'corpus-npm4-v1',
      arm,
      retriever: { id: 'bm25f', analyzer: 'lowercase, split on _ - camelCase, ascii fold', params: { k1: 1.2, b: 0.75, weights: { name: 3, description: 1, params: 0.5 } } },
      golden_version: 'golden-npm4-v1',
      query_count: nq,
      errors: rows.filter((r) => r.error).length,
      metrics: metrics(rows, rnd),
      per_query: rows,
    });
  }
  retrieval.push({ corpus_id: 'livemcptool', arm: 'baseline_json', not_scorable: 'no golden set for livemcptool@ddea2d24' });

  // economics: discovery menu = 3 meta tools; mean response = top-5 tools rendered in the arm
  const break_even: BreakEvenRow[] = [];
  const session_estimates: SessionEstimateRow[] = [];
  const curves: BreakEvenCurvePoint[] = [];
  for (const c of corpora) {
    for (const arm of SAMPLE_ARMS) {
      for (const tok of SAMPLE_TOKENIZERS) {
        const full = totals.get(`${c.id}|${tok}|${arm}`);
        if (full === undefined) continue;
        const disc = tok === 'o200k_base' ? 1120 : 1200;
        const perTool = arms.find((a) => a.arm === arm && a.corpus_id === c.id)!.by_tokenizer[tok].mean;
        const meanResp = round(perTool * 5 + 60, 2);
        const num = full - disc;
        const no = num <= 0;
        break_even.push({
          corpus_id: c.id, arm, tokenizer: tok, full_menu_tokens: full, discovery_menu_tokens: disc, mean_response_tokens: meanResp,
          break_even_calls: no ? null : round(num / meanResp, 4), no_break_even: no,
          ...(no ? { reason: `full menu (${full}) is not larger than the discovery menu (${disc})` } : {}),
          provenance: 'computed',
        });
        const retry = arm === 'toon_listing' ? 0.05 : 0;
        for (const calls of [1, 3, 5, 10]) {
          session_estimates.push({
            corpus_id: c.id, arm, tokenizer: tok, calls_per_session: calls, retry_rate: retry, menu_tokens: disc,
            mean_response_tokens: meanResp, estimated_tokens: Math.floor(disc + calls * meanResp * (1 + retry) + 0.5), provenance: 'estimated',
          });
        }
        for (let calls = 0; calls <= 20; calls += 2) {
          curves.push({ corpus_id: c.id, arm, tokenizer: tok, calls, full_menu_tokens: full, discovery_tokens: round(disc + calls * meanResp, 2) });
        }
      }
    }
  }

  const report: Report = {
    report_version: 1,
    meta: {
      tool: { name: 'mcpgauge', version: '0.1.0' },
      generated_at: '2026-11-30T00:00:00Z',
      command_line: ['mcpgauge', 'bench', '--out', 'results/discovery', '--live'],
      node_version: 'v20.19.0',
      git_commit: '0123456789abcdef0123456789abcdef01234567',
      options: { live: opts.live ?? true, seed: 42, tokenizers: [...SAMPLE_TOKENIZERS] },
      tokenizers: [
        { name: 'cl100k_base', caveat: 'OpenAI cl100k_base; other model families tokenize differently (Claude counts can differ by 10-30%).' },
        { name: 'o200k_base', caveat: 'OpenAI o200k_base (GPT-4o family); not the tokenizer of every model.' },
      ],
      caveat: 'Token counts come from OpenAI BPE tokenizers (cl100k_base, o200k_base). Your model may count differently; compare arms, not absolute numbers.',
      notes: ['Savings are relative to baseline_json on the same corpus and tokenizer.'],
    },
    provenance: { ...OFFLINE_PROVENANCE },
    corpora,
    arms,
    ranking_agreement,
    retrieval,
    economics: { break_even, session_estimates, curves },
  };
  if (opts.live ?? true) {
    report.live = sampleLive(toolIds, nq, rnd);
    Object.assign(report.provenance, LIVE_PROVENANCE, LAP_PROVENANCE);
  }
  return report;
}

function sampleLive(toolIds: string[], nq: number, rnd: () => number): LiveReport {
  const responses: LiveReport['responses'] = [];
  const summary: LiveReport['response_summary'] = [];
  for (const detail of ['full', 'compact'] as const) {
    for (const tok of SAMPLE_TOKENIZERS) {
      const totals: number[] = [];
      for (let i = 0; i < nq; i++) {
        const qid = `q${String(i + 1).padStart(2, '0')}`;
        const lat = round(3 + rnd() * 20, 3);
        if (i === 6 && detail === 'compact') {
          responses.push({ query_id: qid, detail, tokenizer: tok, ok: false, error: 'MCP error -32001: Request timed out', latency_ms: 5000 });
          continue;
        }
        const k = detail === 'full' ? 1 : 0.35;
        const tf = tok === 'o200k_base' ? 0.94 : 1;
        const components = {
          input_schemas: detail === 'full' ? Math.round((900 + rnd() * 600) * tf) : 0,
          descriptions: Math.round((300 + rnd() * 200) * tf * (detail === 'full' ? 1 : 0.2)),
          usage_instructions: Math.round(85 * tf),
          metadata: Math.round((120 + rnd() * 60) * tf * (detail === 'full' ? 1 : 3)),
          other: Math.round(40 * tf * k + 10),
        };
        const total = components.input_schemas + components.descriptions + components.usage_instructions + components.metadata + components.other;
        totals.push(total);
        responses.push({ query_id: qid, detail, tokenizer: tok, ok: true, total_tokens: total, result_count: 5, latency_ms: lat, components });
      }
      summary.push({
        detail, tokenizer: tok, n: totals.length, p50: percentile(totals, 50), p95: percentile(totals, 95), p99: percentile(totals, 99),
        max: Math.max(...totals), mean: round(mean(totals), 2),
      });
    }
  }
  const fullRows = queryRows(toolIds, nq, 0.55, seededRandom(99));
  const compactRows = queryRows(toolIds, nq, 0.55, seededRandom(99));
  compactRows[6] = { ...compactRows[6], error: 'MCP error -32001: Request timed out', top: [], first_relevant_rank: null, recall_at_1: 0, recall_at_3: 0, recall_at_5: 0, recall_at_10: 0, rr: 0, ndcg_at_10: 0, ap: 0, comprehensive_at_5: 0 };
  const menus: LiveReport['menus'] = SAMPLE_TOKENIZERS.map((tok) => {
    const tf = tok === 'o200k_base' ? 0.93 : 1;
    return {
      tokenizer: tok,
      proxy_menu_tokens: fig(Math.round(1310 * tf), 'tokens', 'measured', { tokenizer: tok, n: 4 }),
      full_menu_tokens: fig(Math.round(9420 * tf), 'tokens', 'measured', { tokenizer: tok, n: toolIds.length }),
      proxy_tool_count: 4,
      upstream_tool_count: toolIds.length,
    };
  });
  const resultCost = sampleResultCost();
  const be: BreakEvenRow[] = [];
  const se: SessionEstimateRow[] = [];
  for (const m of menus) {
    for (const detail of ['full', 'compact'] as const) {
      const s = summary.find((x) => x.detail === detail && x.tokenizer === m.tokenizer)!;
      const num = m.full_menu_tokens.value - m.proxy_menu_tokens.value;
      be.push({
        corpus_id: 'corpus-npm4-v1', arm: `proxy_${detail}`, tokenizer: m.tokenizer, full_menu_tokens: m.full_menu_tokens.value,
        discovery_menu_tokens: m.proxy_menu_tokens.value, mean_response_tokens: s.mean, break_even_calls: round(num / s.mean, 4),
        no_break_even: false, provenance: 'computed',
      });
      for (const calls of [1, 3, 5, 10]) {
        se.push({
          corpus_id: 'corpus-npm4-v1', arm: `proxy_${detail}`, tokenizer: m.tokenizer, calls_per_session: calls, retry_rate: 0,
          menu_tokens: m.proxy_menu_tokens.value, mean_response_tokens: s.mean, estimated_tokens: Math.floor(m.proxy_menu_tokens.value + calls * s.mean + 0.5),
          provenance: 'estimated',
        });
      }
    }
  }
  return {
    target: {
      kind: 'embedded',
      description: 'mcpgauge reference proxy over fixture + 4 npm reference servers (stdio)',
      discovery_tool: 'retrieve_tools',
      arg_names: { query: 'query', limit: 'limit', detail: 'detail' },
    },
    proxy: { server_name: 'mcpgauge-proxy', server_version: '0.1.0', protocol_version: '2025-06-18' },
    corpus_id: 'corpus-npm4-v1',
    menus,
    authoritative_headline: true,
    responses,
    response_summary: summary,
    retrieval: [
      { detail: 'full', golden_version: 'golden-npm4-v1', query_count: nq, errors: 0, summary: metrics(fullRows, rnd), per_query: fullRows },
      { detail: 'compact', golden_version: 'golden-npm4-v1', query_count: nq, errors: 1, summary: metrics(compactRows, rnd), per_query: compactRows },
    ],
    latency: [
      { detail: 'full', n: nq * 5, warmup: 2, runs: 5, p50_ms: 6.2, p95_ms: 14.8, p99_ms: 21.3, max_ms: 22.9, mean_ms: 7.4 },
      { detail: 'compact', n: nq * 5 - 5, warmup: 2, runs: 5, p50_ms: 5.1, p95_ms: 11.9, p99_ms: 18.4, max_ms: 5000, mean_ms: 90.2 },
    ],
    economics: { break_even: be, session_estimates: se, task_sessions: taskSessions('corpus-npm4-v1', menus, summary, resultCost) },
    result_cost: resultCost,
    lap: { executed: false, skip_reason: 'skipped: lap not installed' },
    errors: [{ where: 'query:q07/compact', message: 'MCP error -32001: Request timed out' }],
  };
}

/** Live result cost: two calls (one without a direct measurement), one skip. */
function sampleResultCost(): LiveResultCost {
  const rows: LiveResultCost['rows'] = [];
  for (const tok of SAMPLE_TOKENIZERS) {
    const tf = tok === 'o200k_base' ? 0.95 : 1;
    const side = (content_text: number, structured_content: number, meta: number, wrapper: number) => {
      const c = { content_text: Math.round(content_text * tf), structured_content: Math.round(structured_content * tf), meta, wrapper };
      return { total: c.content_text + c.structured_content + c.meta + c.wrapper, components: c };
    };
    const proxy = side(61, 63, 0, 14);
    const direct = side(61, 63, 0, 14);
    rows.push({ query_id: 'q03', tool_id: 'filesystem:read_text_file', tokenizer: tok, rank: 1, ok: true, call_tokens: 35, proxy, direct, overhead_tokens: proxy.total - direct.total });
    rows.push({ query_id: 'q05', tool_id: 'everything:get-resource-links', tokenizer: tok, rank: 1, ok: true, call_tokens: 14, proxy: side(13, 0, 9, 126), direct_error: 'no direct connection to upstream everything (pass --upstreams FILE for external proxies)', overhead_tokens: null });
    rows.push({ query_id: 'q11', tool_id: 'filesystem:get_file_info', tokenizer: tok, rank: 1, ok: false, error: 'tool error: ENOENT: no such file or directory', call_tokens: 22, overhead_tokens: null });
  }
  const summary: LiveResultCost['summary'] = SAMPLE_TOKENIZERS.map((tok) => {
    const mine = rows.filter((r) => r.tokenizer === tok && r.ok);
    const totals = mine.map((r) => r.proxy!.total);
    const both = mine.filter((r) => r.direct);
    return {
      tokenizer: tok, n: mine.length, mean_call_tokens: mean(mine.map((r) => r.call_tokens)), mean_result_tokens: mean(totals), p50_result_tokens: percentile(totals, 50),
      max_result_tokens: Math.max(...totals), direct_n: both.length, mean_direct_result_tokens: mean(both.map((r) => r.direct!.total)), mean_overhead_tokens: mean(both.map((r) => r.overhead_tokens!)),
    };
  });
  return {
    call_tool: 'call_tool', top_k: 1, candidates: 4, rows, summary, method: RESULT_COST_METHOD,
    skipped: [
      { query_id: 'q07', tool_id: 'memory:create_entities', reason: 'not called: memory:create_entities is not annotated readOnlyHint: true and not in the golden set\'s call_allow' },
      { query_id: 'q09', tool_id: 'memory:read_graph', reason: "the proxy's top-1 is filesystem:edit_file, the golden call is for memory:read_graph" },
    ],
  };
}
