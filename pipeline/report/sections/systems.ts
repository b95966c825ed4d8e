/**
 * Several systems side by side (`--system`): one comparison table (menu tokens, response tokens
 * p50/p95, recall@5 and MRR with CIs, latency p50/p99, break-even, errors), grouped bars with one
 * colour per system (the same colours as the scale charts), then one block per system (a proxy's
 * block is drawn exactly like the single live section).
 */
import { colorsBy } from '../palette.ts';
import type { Block, ChartRef, ReportSection, TableRow } from '../details.ts';
import type { Figure, Report, SystemBlock } from '../types.ts';
import { liveSection } from './live.ts';
import { primaryTokenizer } from './common.ts';

/** the grouped-bar chart spec (reports-template/charts/systems_compare.vl.json) */
export const SYSTEMS_CHART = 'systems_compare';

/** Colour order: systems are coloured by their position in the run (see the chart specs' range). */
export function systemOrder(r: Report): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of r.systems ?? []) m.set(s.name, m.size);
  for (const s of r.scale?.systems ?? []) if (!m.has(s.name)) m.set(s.name, m.size);
  return m;
}

/** The comparison row of one system (its `full` detail level; tokens in the report's first tokenizer). */
export function comparisonRow(s: SystemBlock, tk: string): Record<string, number | Figure | string | null | undefined> {
  const row: Record<string, number | Figure | string | null | undefined> = { system: s.name, kind: s.kind };
  if (s.error) return { ...row, status: `failed: ${s.error}` };
  if (s.direct) {
    const m = s.direct.menus.find((x) => x.tokenizer === tk);
    return {
      ...row,
      status: 'ok',
      menu_tokens: m?.menu_tokens,
      tools: m?.tool_count,
      latency_p50_ms: s.direct.latency.p50_ms,
      latency_p99_ms: s.direct.latency.p99_ms,
      errors: 0,
    };
  }
  const l = s.live!;
  const menu = l.menus.find((x) => x.tokenizer === tk);
  const resp = l.response_summary.find((x) => x.tokenizer === tk && x.detail === 'full');
  const ret = l.retrieval.find((x) => x.detail === 'full');
  const lat = l.latency.find((x) => x.detail === 'full');
  const be = l.economics.break_even.find((x) => x.tokenizer === tk && x.arm === 'proxy_full');
  return {
    ...row,
    status: 'ok',
    menu_tokens: menu?.proxy_menu_tokens,
    tools: menu?.proxy_tool_count,
    response_p50: resp?.p50,
    response_p95: resp?.p95,
    recall_at_5: ret?.summary?.recall_at_5,
    mrr: ret?.summary?.mrr,
    latency_p50_ms: lat?.p50_ms,
    latency_p99_ms: lat?.p99_ms,
    break_even: be ? (be.break_even_calls ?? null) : undefined,
    errors: l.responses.filter((x) => !x.ok).length,
  };
}

/** Grouped-bar rows: one per (figure, system) with a value. */
export function comparisonChartRows(r: Report): Record<string, string | number | null>[] {
  const tk = primaryTokenizer(r);
  const order = systemOrder(r);
  const figures: [string, string, (row: ReturnType<typeof comparisonRow>) => number | undefined][] = [
    ['menu tokens', 'tokens', (x) => (x.menu_tokens as Figure | undefined)?.value],
    ['response tokens p50', 'tokens', (x) => x.response_p50 as number | undefined],
    ['response tokens p95', 'tokens', (x) => x.response_p95 as number | undefined],
    ['recall@5', 'fraction', (x) => (x.recall_at_5 as Figure | undefined)?.value],
    ['MRR', 'fraction', (x) => (x.mrr as Figure | undefined)?.value],
    ['latency p50 (ms)', 'ms', (x) => x.latency_p50_ms as number | undefined],
    ['latency p99 (ms)', 'ms', (x) => x.latency_p99_ms as number | undefined],
    ['break-even calls', 'calls', (x) => (x.break_even as number | null | undefined) ?? undefined],
  ];
  const out: Record<string, string | number | null>[] = [];
  for (const s of r.systems ?? []) {
    const row = comparisonRow(s, tk);
    figures.forEach(([figure, unit, get], fi) => {
      const v = get(row);
      if (v !== undefined && Number.isFinite(v))
        out.push({ figure, unit, figure_order: fi, system: s.name, system_order: order.get(s.name)!, value: v });
    });
  }
  return out;
}

function systemBlocks(r: Report, s: SystemBlock): Block[] {
  if (s.error) return [{ kind: 'banner', tone: 'bad', title: `${s.name}: not measured`, text: s.error }];
  if (s.direct) {
    const d = s.direct;
    return [
      {
        kind: 'kv',
        items: [
          { label: 'System', value: `${s.kind}: ${s.description}` },
          { label: 'Upstreams', value: d.upstreams.join(', ') },
          {
            label: 'Listing latency',
            value: `p50 ${d.latency.p50_ms} ms, p99 ${d.latency.p99_ms} ms, max ${d.latency.max_ms} ms (n=${d.latency.n}; ${d.latency.of})`,
          },
        ],
      },
      {
        kind: 'table',
        id: `system-${s.name}-menus`,
        columns: [
          { key: 'tokenizer', label: 'Tokenizer', type: 'ident' },
          { key: 'menu_tokens', label: 'Full menu', type: 'figure', badge: true },
          { key: 'tool_count', label: 'Tools', type: 'int' },
        ],
        rows: d.menus.map((m) => ({ ...m })),
      },
      {
        kind: 'paragraph',
        muted: true,
        text: 'direct has no discovery call: every tool is in context, so there are no response tokens, no ranking to score and no break-even (it is the baseline the others are measured against).',
      },
    ];
  }
  return liveSection.build({ ...r, live: s.live }).blocks;
}

export const systemsSection: ReportSection<Report> = {
  id: 'systems',
  title: 'Systems side by side',
  provenanceKeys: ['systems.menus', 'systems.responses', 'systems.retrieval', 'systems.latency', 'systems.break_even'],
  schemaRefs: ['#/$defs/system_block', '#/$defs/direct_block', '#/$defs/live'],
  appliesTo: (r) => (r.systems?.length ?? 0) > 0,
  /** one line per system (first tokenizer) */
  summary: (r) => {
    const out: string[] = [];
    const tk = r.meta.tokenizers[0]?.name;
    for (const s of r.systems ?? []) {
      if (s.error) out.push(`system ${s.name}: FAILED: ${s.error}`);
      else if (s.direct)
        out.push(
          `system ${s.name}: menu ${s.direct.menus.find((m) => m.tokenizer === tk)?.menu_tokens.value} tokens (${tk}), listing p50 ${s.direct.latency.p50_ms} ms`,
        );
      else if (s.live && s.live.style === 'passthrough') {
        out.push(
          `system ${s.name}: menu ${s.live.menus.find((m) => m.tokenizer === tk)?.proxy_menu_tokens.value} tokens (${tk}), pass-through (no discovery calls)${s.live.cheap_call ? `, ${s.live.cheap_call.method} p50 ${s.live.cheap_call.p50_ms} ms` : ''}${s.live.passthrough ? `, ${s.live.passthrough.matched} upstream tools matched` : ''}`,
        );
      } else if (s.live) {
        const ret = s.live.retrieval.find((x) => x.detail === 'full');
        out.push(
          `system ${s.name}: menu ${s.live.menus.find((m) => m.tokenizer === tk)?.proxy_menu_tokens.value} tokens (${tk}), recall@5 ${ret?.summary?.recall_at_5.value.toFixed(3) ?? '—'}, latency p50 ${s.live.latency.find((x) => x.detail === 'full')?.p50_ms ?? '—'} ms`,
        );
      }
    }
    return out;
  },
  build(r) {
    const tk = primaryTokenizer(r);
    const rows = (r.systems ?? []).map((s) => comparisonRow(s, tk)) as TableRow[];
    const chartRows = comparisonChartRows(r);
    const chart: ChartRef = {
      kind: 'chart',
      spec: SYSTEMS_CHART,
      rows: chartRows,
      color: colorsBy(r, chartRows, 'system', 'system'),
      note: tk,
      empty: 'no system was measured',
    };
    return {
      blocks: [
        {
          kind: 'paragraph',
          text: `Same upstreams, golden queries and tokenizers for every system; discovery calls alternate between systems (one at a time, in turn). Tokens: ${tk}; detail full; recall and MRR with 95% bootstrap CIs.`,
        },
        {
          kind: 'table',
          id: 'systems-compare',
          columns: [
            { key: 'system', label: 'System', type: 'key' },
            { key: 'kind', label: 'Kind', type: 'ident' },
            { key: 'status', label: 'Status', type: 'text' },
            { key: 'menu_tokens', label: 'Menu tokens', type: 'figure', badge: true },
            { key: 'tools', label: 'Tools listed', type: 'int' },
            { key: 'response_p50', label: 'Resp. p50', type: 'num', digits: 0 },
            { key: 'response_p95', label: 'Resp. p95', type: 'num', digits: 0 },
            { key: 'recall_at_5', label: 'R@5', type: 'figure', metric: true },
            { key: 'mrr', label: 'MRR', type: 'figure', metric: true },
            { key: 'latency_p50_ms', label: 'p50 ms', type: 'num', digits: 2 },
            { key: 'latency_p99_ms', label: 'p99 ms', type: 'num', digits: 2 },
            { key: 'break_even', label: 'Break-even calls', type: 'num', digits: 1 },
            { key: 'errors', label: 'Errors', type: 'int' },
          ],
          rows,
        },
        { kind: 'charts', charts: [chart] },
        ...(r.systems ?? []).map(
          (s): Block => ({
            kind: 'details',
            summary: `${s.name} (${s.kind}: ${s.spec})${s.error ? ' · FAILED' : ''}`,
            blocks: systemBlocks(r, s),
          }),
        ),
      ],
    };
  },
};
