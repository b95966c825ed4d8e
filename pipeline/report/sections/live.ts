/** The live proxy: target, menus over the wire, response tokens, latency, proxy retrieval, economics, LAP. */
import type { Block, ReportSection } from '../details.ts';
import { html } from '../html.ts';
import { fmtInt, fmtNum, rich } from '../render.ts';
import type { LiveReport, Report } from '../types.ts';
import { capRows, economicsBlocks, livePerQueryRows, MAX_QUERY_ROWS, METRIC_COLUMNS, metricValues, perQueryTable } from './common.ts';

const COMPONENTS = ['input_schemas', 'descriptions', 'usage_instructions', 'metadata', 'other'] as const;

function targetBlock(l: LiveReport): Block {
  return {
    kind: 'kv',
    items: [
      { label: 'Target', value: `${l.target.kind}: ${l.target.description}` },
      {
        label: 'Discovery tool',
        value: html`<code>${l.target.discovery_tool}</code> (query: <code>${l.target.arg_names.query}</code>, limit: <code>${l.target.arg_names.limit ?? '—'}</code>, detail: <code>${l.target.arg_names.detail ?? '—'}</code>)`,
      },
      {
        label: 'Proxy',
        value: `${l.proxy.server_name ?? 'unknown'} ${l.proxy.server_version ?? ''} · protocol ${l.proxy.protocol_version ?? 'unknown'}`,
      },
      {
        label: 'Headline',
        value: l.authoritative_headline
          ? 'authoritative (every schema present on both sides)'
          : html`<span class="bad">not authoritative: ${l.headline_reason ?? ''}</span>`,
      },
    ],
  };
}

/** What LAP is, in one sentence (the dashboard's LAP heading and the divergence banner). */
export const LAP_WHAT =
  "LAP (lap-score on PyPI) is a third-party linter that grades an MCP server's tool listing and counts its menu tokens its own way (json.dumps of name, description and input_schema); " +
  'we run it on the live proxy as a second opinion. A difference beyond ±15% is a warning about framing, not an error: both counts are of the same menu.';

function lapBlock(l: LiveReport): Block {
  if (!l.lap.executed)
    return { kind: 'paragraph', muted: true, text: `LAP not executed: ${(l.lap.skip_reason ?? '').replace(/^skipped:\s*/i, '')}` };
  return {
    kind: 'kv',
    items: [
      { label: 'Version', value: l.lap.version ?? 'unknown' },
      { label: 'Grade', value: l.lap.grade ?? '—' },
      { label: 'LAP menu tokens', value: l.lap.menu_tokens !== undefined ? fmtInt(l.lap.menu_tokens) : '—' },
      { label: 'In-house menu tokens', value: l.lap.in_house_menu_tokens !== undefined ? fmtInt(l.lap.in_house_menu_tokens) : '—' },
      {
        label: 'Divergence',
        value: html`${l.lap.divergence_pct !== undefined ? `${fmtNum(l.lap.divergence_pct, 1)}%` : '—'}${l.lap.warning ? html` <span class="warn">warning: ${l.lap.warning}</span>` : ''}`,
      },
      { label: 'Artifact', value: html`<code>${l.lap.artifact_path ?? '—'}</code>` },
    ],
  };
}

export const liveSection: ReportSection<Report> = {
  id: 'live',
  title: 'Live proxy',
  provenanceKeys: [
    'live.menus',
    'live.responses',
    'live.retrieval',
    'live.latency',
    'live.economics.break_even',
    'live.economics.session_estimates',
    'live.lap',
  ],
  schemaRefs: ['#/$defs/live', '#/$defs/live_response', '#/$defs/components'],
  appliesTo: (r) => r.live !== undefined,
  summary: (r) => {
    const lv = r.live;
    if (!lv) return [];
    const out: string[] = [];
    for (const m of lv.menus)
      out.push(`\nlive menu (${m.tokenizer}): proxy ${m.proxy_menu_tokens.value} vs full ${m.full_menu_tokens.value} tokens`);
    if (lv.style)
      out.push(
        `live style: ${lv.style} (${lv.style_reason}); discovery: ${lv.discovery?.status}${lv.discovery?.reason ? ` (${lv.discovery.reason})` : ''}`,
      );
    for (const lr of lv.retrieval) {
      if (lr.summary)
        out.push(
          `live retrieval ${lr.detail}: recall@5 ${lr.summary.recall_at_5.value.toFixed(3)} MRR ${lr.summary.mrr.value.toFixed(3)} (${lr.query_count} queries${lr.errors ? `, ${lr.errors} failed` : ''})`,
        );
      else out.push(`live retrieval ${lr.detail}: not computed (${lr.not_computed_reason ?? 'no usable response'})`);
    }
    for (const s of lv.response_summary)
      out.push(
        `live responses ${s.detail} (${s.tokenizer}): p50 ${s.p50} p95 ${s.p95} max ${s.max} tokens, n=${s.n}${s.errors ? `, ${s.errors} failed` : ''}`,
      );
    for (const l of lv.latency)
      out.push(
        `live latency ${l.detail}: p50 ${l.p50_ms} ms p95 ${l.p95_ms} ms p99 ${l.p99_ms} ms (n=${l.n}${l.errors ? `, ${l.errors} failed` : ''})`,
      );
    if (lv.cheap_call)
      out.push(
        `live cheap call (${lv.cheap_call.method}): p50 ${lv.cheap_call.p50_ms} ms p95 ${lv.cheap_call.p95_ms} ms (n=${lv.cheap_call.n})`,
      );
    if (lv.passthrough)
      out.push(
        `live pass-through: ${lv.passthrough.matched} upstream tools matched, prefix overhead ${lv.passthrough.prefix_overhead_tokens} tokens (${lv.passthrough.tokenizer})`,
      );
    for (const n of lv.not_computed ?? []) out.push(`live not computed: ${n.what}: ${n.reason}`);
    if (lv.lap.executed)
      out.push(
        `live LAP${lv.lap.version ? ` ${lv.lap.version}` : ''}: grade ${lv.lap.grade ?? '—'}, menu ${lv.lap.menu_tokens} tokens vs ours ${lv.lap.in_house_menu_tokens ?? '—'} (cl100k_base)${lv.lap.divergence_pct !== undefined ? `, ${lv.lap.divergence_pct > 0 ? '+' : ''}${lv.lap.divergence_pct}%` : ''}${lv.lap.warning ? " (warning, not an error: LAP frames the menu differently; see the dashboard's LAP section)" : ''}`,
      );
    else out.push(`live LAP not executed: ${(lv.lap.skip_reason ?? '').replace(/^skipped:\s*/i, '')}`);
    for (const s of lv.result_cost?.summary ?? []) {
      out.push(
        `live result cost (${s.tokenizer}): ${s.n} calls via ${lv.result_cost!.call_tool}, mean result ${s.mean_result_tokens.toFixed(1)} tokens, mean call ${s.mean_call_tokens.toFixed(1)}, proxy overhead ${s.mean_overhead_tokens?.toFixed(1) ?? 'n/a'} tokens/call (direct n=${s.direct_n})`,
      );
    }
    return out;
  },
  build(r) {
    const l = r.live!;
    const p = r.provenance;
    // failed calls first when the table must be capped; all rows are in tables/live_responses.parquet
    const respRows =
      l.responses.length <= MAX_QUERY_ROWS
        ? l.responses
        : [...l.responses.filter((x) => !x.ok), ...l.responses.filter((x) => x.ok)].slice(0, MAX_QUERY_ROWS);
    const perQueryAll = livePerQueryRows(r);
    const perQuery = capRows(perQueryAll);
    // the run's health first: a failed run must look failed
    const health = healthBlocks(l);
    return {
      blocks: [
        targetBlock(l),
        ...health,
        { kind: 'heading', text: 'Menus over the wire', provenance: p['live.menus'] },
        {
          kind: 'paragraph',
          muted: true,
          text: "Proxy menu: the proxy's own tools/list. Full menu: the union of the upstreams' tools/list as they answered live, every upstream the proxy serves (so it can hold more tools than the frozen corpus, whose offline listing the arms table counts).",
        },
        menusTable(l),
        { kind: 'heading', text: 'Discovery response tokens', provenance: p['live.responses'] },
        responseSummaryTable(l),
        { kind: 'heading', text: 'Latency', provenance: p['live.latency'] },
        { kind: 'paragraph', text: 'client-measured per call, after warm-up; nearest-rank percentiles.' },
        latencyTable(l),
        { kind: 'heading', text: 'Proxy retrieval quality', provenance: p['live.retrieval'] },
        retrievalTable(l),
        {
          kind: 'details',
          summary: `Per-query proxy rankings (${perQueryAll.length} rows${perQuery.length < perQueryAll.length ? `, ${perQuery.length} shown, every weak row kept; all in tables/per_query.parquet` : ''})`,
          blocks: [perQueryTable(perQuery, 'live-per-query')],
        },
        {
          kind: 'details',
          summary: `Every discovery response (${l.responses.length} rows${respRows.length < l.responses.length ? `, ${respRows.length} shown, failures first; all in tables/live_responses.parquet` : ''})`,
          blocks: [{ kind: 'paragraph', text: 'components add up exactly to the total (span attribution).' }, responsesTable(respRows)],
        },
        ...economicsBlocks(
          l.economics,
          'live-economics',
          'Live economics',
          p['live.economics.break_even'],
          p['live.economics.session_estimates'],
        ),
        { kind: 'heading', id: 'live-lap', text: 'LAP (lap-score, an independent linter of MCP tool listings)', provenance: p['live.lap'] },
        { kind: 'paragraph', muted: true, text: LAP_WHAT },
        lapBlock(l),
        { kind: 'heading', text: 'Errors' },
        l.errors.length
          ? { kind: 'list', items: l.errors.map((e) => html`<code>${e.where}</code>: ${e.message}`) }
          : { kind: 'paragraph', muted: true, text: 'no errors' },
      ],
    };
  },
};

/** the run's health: failed state, style, call counts, cheap call, pass-through, what was not computed */
function healthBlocks(l: LiveReport): Block[] {
  const health: Block[] = [];
  if (l.status?.state === 'failed')
    health.push({ kind: 'paragraph', text: `RUN FAILED: ${l.status.reason ?? 'error rate above the limit'}` });
  if (l.style)
    health.push({
      kind: 'paragraph',
      text: `style: ${l.style} (${l.style_reason ?? ''}); discovery: ${l.discovery ? `${l.discovery.status}${l.discovery.reason ? ` (${l.discovery.reason})` : ''}` : 'measured'}`,
    });
  if (l.calls) {
    const c = l.calls;
    health.push({
      kind: 'paragraph',
      text: `calls: measured ${c.measured.n} (${c.measured.errors} failed), warm-up ${c.warmup.n} (${c.warmup.errors} failed), readiness probes ${c.readiness.n} (${c.readiness.errors} failed); only measured calls count`,
    });
  }
  if (l.cheap_call)
    health.push({
      kind: 'paragraph',
      text: `cheap call (${l.cheap_call.method}): p50 ${l.cheap_call.p50_ms} ms, p95 ${l.cheap_call.p95_ms} ms, max ${l.cheap_call.max_ms} ms (n=${l.cheap_call.n})`,
    });
  if (l.passthrough) {
    const pt = l.passthrough;
    health.push({
      kind: 'paragraph',
      text: `pass-through menu (${pt.tokenizer}): ${pt.matched} upstream tools matched, ${pt.unmatched_upstream.length} unmatched, ${pt.extra_proxy.length} extra proxy tools; prefix overhead ${pt.prefix_overhead_tokens} tokens`,
    });
  }
  for (const n of l.not_computed ?? []) health.push({ kind: 'paragraph', muted: true, text: `not computed: ${n.what}: ${n.reason}` });
  return health;
}

/** every discovery response, components included (failed rows marked) */
function responsesTable(respRows: LiveReport['responses']): Block {
  return {
    kind: 'table',
    id: 'live-responses',
    columns: [
      { key: 'query_id', label: 'Query id', type: 'ident' },
      { key: 'detail', label: 'Detail', type: 'ident' },
      { key: 'tokenizer', label: 'Tokenizer', type: 'ident' },
      { key: 'ok', label: 'OK', type: 'text' },
      { key: 'total_tokens', label: 'Total', type: 'int' },
      { key: 'result_count', label: 'Results', type: 'int' },
      { key: 'latency_ms', label: 'Latency ms', type: 'num', digits: 2 },
      ...COMPONENTS.map((c) => ({ key: c, label: c, type: 'int' as const })),
    ],
    rows: respRows.map((x) => ({
      query_id: x.query_id,
      detail: x.detail,
      tokenizer: x.tokenizer,
      ok: x.ok ? rich(html`ok`, 1) : rich(html`<span class="bad">error</span><div class="meta">${x.error ?? ''}</div>`, 0),
      total_tokens: x.total_tokens,
      result_count: x.result_count,
      latency_ms: x.latency_ms,
      ...Object.fromEntries(COMPONENTS.map((c) => [c, x.components?.[c]])),
    })),
    rowClasses: respRows.map((x) => (x.ok ? '' : 'err')),
  };
}

/** the menus over the wire: proxy menu vs the upstreams' full menu, per tokenizer */
function menusTable(l: LiveReport): Block {
  return {
    kind: 'table',
    id: 'live-menus',
    columns: [
      { key: 'tokenizer', label: 'Tokenizer', type: 'ident' },
      { key: 'proxy_menu_tokens', label: 'Proxy menu', type: 'figure', badge: true },
      { key: 'proxy_tool_count', label: 'Proxy tools', type: 'int' },
      { key: 'full_menu_tokens', label: 'Full menu (upstreams)', type: 'figure', badge: true },
      { key: 'upstream_tool_count', label: 'Upstream tools', type: 'int' },
    ],
    rows: l.menus.map((m) => ({ ...m })),
  };
}

/** discovery response token percentiles per detail and tokenizer */
function responseSummaryTable(l: LiveReport): Block {
  return {
    kind: 'table',
    id: 'live-response-summary',
    columns: [
      { key: 'detail', label: 'Detail', type: 'ident' },
      { key: 'tokenizer', label: 'Tokenizer', type: 'ident' },
      { key: 'n', label: 'n', type: 'int' },
      { key: 'p50', label: 'p50', type: 'num', digits: 0 },
      { key: 'p95', label: 'p95', type: 'num', digits: 0 },
      { key: 'p99', label: 'p99', type: 'num', digits: 0 },
      { key: 'max', label: 'Max', type: 'num', digits: 0 },
      { key: 'mean', label: 'Mean', type: 'num', digits: 1 },
    ],
    rows: l.response_summary.map((s) => ({ ...s })),
  };
}

/** client-measured latency percentiles per detail */
function latencyTable(l: LiveReport): Block {
  return {
    kind: 'table',
    id: 'live-latency',
    columns: [
      { key: 'detail', label: 'Detail', type: 'ident' },
      { key: 'n', label: 'n', type: 'int' },
      { key: 'warmup', label: 'Warm-up', type: 'int' },
      { key: 'runs', label: 'Runs', type: 'int' },
      ...(['p50_ms', 'p95_ms', 'p99_ms', 'max_ms', 'mean_ms'] as const).map((k) => ({
        key: k,
        label: `${k === 'max_ms' ? 'Max' : k === 'mean_ms' ? 'Mean' : k.slice(0, 3)} ms`,
        type: 'num' as const,
        digits: 2,
      })),
    ],
    rows: l.latency.map((x) => ({ ...x })),
  };
}

/** proxy retrieval quality per detail (details whose calls all failed are left out) */
function retrievalTable(l: LiveReport): Block {
  return {
    kind: 'table',
    id: 'live-retrieval',
    columns: [
      { key: 'detail', label: 'Detail', type: 'ident' },
      { key: 'golden_version', label: 'Golden', type: 'text' },
      { key: 'query_count', label: 'Queries', type: 'int' },
      { key: 'errors', label: 'Errors', type: 'int' },
      ...METRIC_COLUMNS,
    ],
    // a detail whose calls all failed shows no figures (live.not_computed says why)
    rows: l.retrieval.flatMap((x) =>
      x.summary
        ? [
            {
              detail: x.detail,
              golden_version: x.golden_version ?? '',
              query_count: x.query_count,
              errors: x.errors,
              ...metricValues(x.summary),
            },
          ]
        : [],
    ),
  };
}
