/** Live result cost: golden calls through the proxy's call tool vs directly on the upstream, by component; task-session estimates. */
import { html, rich, RESULT_COMPONENTS, type Block, type ReportSection, type Report } from '../report/index.ts';

export const liveResultsSection: ReportSection<Report> = {
  id: 'live-results',
  title: 'Live result cost',
  provenanceKeys: ['live.result_cost', 'live.economics.task_sessions'],
  schemaRefs: ['#/$defs/live_result_cost', '#/$defs/result_tokens', '#/$defs/task_session_row'],
  appliesTo: (r) => r.live?.result_cost !== undefined,
  build(r) {
    const c = r.live!.result_cost!;
    const p = r.provenance;
    const sessions = r.live!.economics.task_sessions ?? [];
    const blocks: Block[] = [
      {
        kind: 'paragraph',
        text: `${c.rows.length ? new Set(c.rows.map((x) => x.query_id)).size : 0} of ${c.candidates} golden calls made through ${c.call_tool} (a call runs when its tool is the proxy's top ${c.top_k === 1 ? '1' : c.top_k} and is read-only or allow-listed). ${c.method}.`,
      },
      {
        kind: 'table',
        id: 'live-result-summary',
        columns: [
          { key: 'tokenizer', label: 'Tokenizer', type: 'ident' },
          { key: 'n', label: 'Calls', type: 'int' },
          { key: 'mean_call_tokens', label: 'Mean call', type: 'num', digits: 1 },
          { key: 'mean_result_tokens', label: 'Mean result (proxy)', type: 'num', digits: 1 },
          { key: 'p50_result_tokens', label: 'p50', type: 'num', digits: 0 },
          { key: 'max_result_tokens', label: 'Max', type: 'num', digits: 0 },
          { key: 'direct_n', label: 'Direct n', type: 'int' },
          { key: 'mean_direct_result_tokens', label: 'Mean result (direct)', type: 'num', digits: 1 },
          { key: 'mean_overhead_tokens', label: 'Mean proxy overhead', type: 'num', digits: 1 },
        ],
        rows: c.summary.map((s) => ({ ...s })),
      },
      {
        kind: 'table',
        id: 'live-result-calls',
        columns: [
          { key: 'query_id', label: 'Query id', type: 'ident' },
          { key: 'tool_id', label: 'Tool', type: 'ident' },
          { key: 'tokenizer', label: 'Tokenizer', type: 'ident' },
          { key: 'rank', label: 'Rank', type: 'int' },
          { key: 'ok', label: 'OK', type: 'text' },
          { key: 'call_tokens', label: 'Call', type: 'int' },
          { key: 'proxy', label: 'Result via proxy', type: 'int' },
          ...RESULT_COMPONENTS.map((k) => ({ key: k, label: k, type: 'int' as const })),
          { key: 'direct', label: 'Result direct', type: 'int' },
          { key: 'overhead', label: 'Overhead', type: 'int' },
        ],
        rows: c.rows.map((x) => ({
          query_id: x.query_id,
          tool_id: x.tool_id,
          tokenizer: x.tokenizer,
          rank: x.rank,
          ok: x.ok
            ? rich(html`ok${x.direct_error ? html`<div class="meta">direct: ${x.direct_error}</div>` : ''}`, 1)
            : rich(html`<span class="bad">error</span><div class="meta">${x.error ?? ''}</div>`, 0),
          call_tokens: x.call_tokens,
          proxy: x.proxy?.total,
          ...Object.fromEntries(RESULT_COMPONENTS.map((k) => [k, x.proxy?.components[k]])),
          direct: x.direct?.total,
          overhead: x.overhead_tokens,
        })),
        rowClasses: c.rows.map((x) => (x.ok ? '' : 'err')),
      },
      {
        kind: 'details',
        summary: `Golden calls not made (${c.skipped.length})`,
        blocks: [
          {
            kind: 'table',
            id: 'live-result-skipped',
            columns: [
              { key: 'query_id', label: 'Query id', type: 'ident' },
              { key: 'tool_id', label: 'Tool', type: 'ident' },
              { key: 'reason', label: 'Why', type: 'text', wide: true },
            ],
            rows: c.skipped.map((s) => ({ ...s })),
          },
        ],
      },
      {
        kind: 'heading',
        text: 'Session estimate with results: menu + tasks × (discovery response + call + result)',
        provenance: p['live.economics.task_sessions'],
      },
      {
        kind: 'table',
        id: 'live-task-sessions',
        columns: [
          { key: 'arm', label: 'Discovery', type: 'ident' },
          { key: 'tokenizer', label: 'Tokenizer', type: 'ident' },
          { key: 'tasks_per_session', label: 'Tasks', type: 'int' },
          { key: 'menu_tokens', label: 'Menu', type: 'int' },
          { key: 'mean_discovery_response_tokens', label: 'Discovery resp.', type: 'num', digits: 1 },
          { key: 'mean_call_tokens', label: 'Call', type: 'num', digits: 1 },
          { key: 'mean_result_tokens', label: 'Result', type: 'num', digits: 1 },
          { key: 'result_n', label: 'Result n', type: 'int' },
          { key: 'estimated_tokens', label: 'Estimated tokens', type: 'int' },
        ],
        rows: sessions.map((s) => ({ ...s })),
      },
    ];
    return { blocks };
  },
};
