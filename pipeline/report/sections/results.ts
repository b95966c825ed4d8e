/** Tool-result encodings: result arms over the result fixtures, tabular vs non-tabular, round trips, TOON vs JSON. */
import type { Block, Column, ReportSection, TableRow, Tile } from '../details.ts';
import { html } from '../html.ts';
import { fmtNum, rich, tokenChange } from '../render.ts';
import { RESULT_BASELINE_ARM_ID } from '../../../arms/result-types.ts';
import type { Report } from '../types.ts';
import type { ResultsReport } from '../types.ts';
import { primaryTokenizer } from './common.ts';

const CLASSES = ['tabular', 'non_tabular', 'all'] as const;
const pctText = (x: number | null | undefined): string =>
  x === null || x === undefined ? '—' : `${x >= 0 ? '−' : '+'}${fmtNum(Math.abs(x), 1)}%`;

/** rows of the "result tokens per arm, tabular vs not" chart (drawn in the chart grid, sections/charts.ts) */
export function resultChartRows(res: ResultsReport): Record<string, string | number | null>[] {
  const order = new Map(res.arms.map((a, i) => [a.id, i]));
  return res.summary
    .filter((s) => s.payload_class !== 'all' && s.n > 0)
    .map((s) => ({
      payload_class: s.payload_class,
      arm: s.arm,
      tokenizer: s.tokenizer,
      total_tokens: s.total_tokens,
      n: s.n,
      order: order.get(s.arm) ?? 0,
    }));
}

function tiles(res: ResultsReport, tok: string, prov: Report['provenance']): Tile[] {
  const o = (cls: string) => res.toon_ordering.find((x) => x.tokenizer === tok && x.payload_class === cls);
  const csv = res.summary.find((s) => s.arm === 'csv_when_tabular' && s.tokenizer === tok && s.payload_class === 'tabular');
  const out: Tile[] = [];
  for (const cls of ['tabular', 'non_tabular'] as const) {
    const r = o(cls);
    if (!r) continue;
    out.push({
      label: `TOON vs compact JSON, ${cls.replace('_', '-')}`,
      value: pctText(r.toon_vs_json_compact_pct),
      sub: `${r.toon_tokens} vs ${r.json_compact_tokens} tokens over ${r.n} fixtures (${tok}); TOON fewer on ${r.fixtures_toon_fewer}, equal on ${r.fixtures_toon_equal}, more on ${r.fixtures_toon_more}`,
      provenance: prov['results.savings_vs_json_pct'],
    });
  }
  if (csv && csv.n > 0)
    out.push({
      label: 'CSV vs JSON, tabular',
      value: pctText(csv.savings_vs_json_pct),
      sub: `${csv.total_tokens} vs ${csv.json_total_tokens} tokens over ${csv.n} fixtures (${tok})`,
      provenance: prov['results.savings_vs_json_pct'],
    });
  return out;
}

function summaryTable(res: ResultsReport, toks: string[]): Block {
  const columns: Column[] = [
    { key: 'arm', label: 'Arm', type: 'key' },
    { key: 'payload_class', label: 'Payloads', type: 'ident' },
    { key: 'n', label: 'n (lossless)', type: 'int' },
    { key: 'lossy_n', label: 'Lossy', type: 'int' },
    { key: 'skipped_n', label: 'Skipped', type: 'int' },
  ];
  for (const t of toks) {
    columns.push(
      { key: `total:${t}`, label: `Tokens (${t})`, type: 'int' },
      { key: `json:${t}`, label: `json tokens (${t})`, type: 'int' },
      { key: `sav:${t}`, label: `Savings vs json (${t})`, type: 'text' },
      { key: `mean:${t}`, label: `Mean/fixture (${t})`, type: 'num', digits: 1 },
    );
  }
  const rows: TableRow[] = [];
  const classes: string[] = [];
  for (const a of res.arms) {
    for (const cls of CLASSES) {
      const first = res.summary.find((s) => s.arm === a.id && s.payload_class === cls);
      if (!first) continue;
      const row: TableRow = { arm: a.id, payload_class: cls, n: first.n, lossy_n: first.lossy_n, skipped_n: first.skipped_n };
      for (const t of toks) {
        const s = res.summary.find((x) => x.arm === a.id && x.payload_class === cls && x.tokenizer === t);
        Object.assign(row, {
          [`total:${t}`]: s?.n ? s.total_tokens : null,
          [`json:${t}`]: s?.n ? s.json_total_tokens : null,
          [`sav:${t}`]: pctText(s?.savings_vs_json_pct),
          [`mean:${t}`]: s?.mean_tokens,
        });
      }
      rows.push(row);
      classes.push(first.lossy_n > 0 ? 'err' : '');
    }
  }
  return { kind: 'table', id: 'results-summary', columns, rows, rowClasses: classes };
}

function orderingTable(res: ResultsReport): Block {
  return {
    kind: 'table',
    id: 'results-toon-ordering',
    caption: "TOON against pretty JSON (json) and minified JSON (json_compact, the predecessor's baseline), same lossless fixtures",
    columns: [
      { key: 'tokenizer', label: 'Tokenizer', type: 'ident' },
      { key: 'payload_class', label: 'Payloads', type: 'ident' },
      { key: 'n', label: 'n', type: 'int' },
      { key: 'toon_tokens', label: 'toon', type: 'int' },
      { key: 'json_compact_tokens', label: 'json_compact', type: 'int' },
      { key: 'json_tokens', label: 'json', type: 'int' },
      { key: 'vs_compact', label: 'TOON vs json_compact', type: 'text' },
      { key: 'vs_json', label: 'TOON vs json', type: 'text' },
      { key: 'fewer', label: 'fixtures TOON fewer', type: 'int' },
      { key: 'equal', label: 'equal', type: 'int' },
      { key: 'more', label: 'more', type: 'int' },
    ],
    rows: res.toon_ordering.map((o) => ({
      tokenizer: o.tokenizer,
      payload_class: o.payload_class,
      n: o.n,
      toon_tokens: o.toon_tokens,
      json_compact_tokens: o.json_compact_tokens,
      json_tokens: o.json_tokens,
      vs_compact: pctText(o.toon_vs_json_compact_pct),
      vs_json: pctText(o.toon_vs_json_pct),
      fewer: o.fixtures_toon_fewer,
      equal: o.fixtures_toon_equal,
      more: o.fixtures_toon_more,
    })),
  };
}

function fixtureTable(res: ResultsReport, tok: string): Block {
  const columns: Column[] = [
    { key: 'fixture', label: 'Fixture', type: 'ident' },
    { key: 'payload_class', label: 'Class', type: 'ident' },
    { key: 'payload_from', label: 'Payload', type: 'ident' },
  ];
  for (const a of res.arms) columns.push({ key: a.id, label: `${a.id} (${tok})`, type: 'text' });
  const rows: TableRow[] = res.fixtures.map((f) => {
    const row: TableRow = {
      fixture: f.id,
      payload_class: f.not_tabular_because
        ? rich(html`${f.payload_class}<div class="meta">${f.not_tabular_because}</div>`, f.payload_class)
        : f.payload_class,
      payload_from: f.payload_from,
    };
    for (const a of res.arms) {
      const r = res.rows.find((x) => x.fixture_id === f.id && x.arm === a.id && x.tokenizer === tok);
      if (!r) continue;
      if (r.skipped) row[a.id] = rich(html`<span class="muted">skipped</span>`, -1);
      else if (r.round_trip === false)
        row[a.id] = rich(
          html`${r.tokens ?? 0} <span class="bad">LOSSY</span><div class="meta">${r.round_trip_error ?? ''}</div>`,
          r.tokens ?? 0,
        );
      else
        row[a.id] = rich(
          html`${r.tokens ?? 0}${a.id === 'json' ? '' : html` <span class="meta">${pctText(r.savings_vs_json_pct)}</span>`}`,
          r.tokens ?? 0,
        );
    }
    return row;
  });
  return { kind: 'table', id: 'results-fixtures', columns, rows, filter: { placeholder: 'filter fixtures' } };
}

export const resultsSection: ReportSection<Report> = {
  id: 'results',
  title: 'Tool results (result arms)',
  provenanceKeys: ['results', 'results.savings_vs_json_pct'],
  schemaRefs: ['#/$defs/results', '#/$defs/result_arm_row', '#/$defs/result_arm_summary', '#/$defs/toon_ordering_row'],
  appliesTo: (r) => r.results !== undefined,
  summary: (r) => {
    const res = r.results;
    if (!res) return [];
    return [
      `\nresult arms on ${res.fixture_set.version} (${res.fixture_set.tabular_count} tabular, ${res.fixture_set.non_tabular_count} non-tabular fixtures; savings vs json, measured/computed)`,
      ...res.summary
        .filter((x) => x.payload_class !== 'all' && x.n > 0)
        .map(
          (s) =>
            `  ${s.arm.padEnd(17)} ${s.payload_class.padEnd(12)} ${s.tokenizer} ${String(s.total_tokens).padStart(6)} tokens (${s.arm === RESULT_BASELINE_ARM_ID ? 'baseline' : tokenChange(s.savings_vs_json_pct ?? 0)}) n=${s.n}${s.lossy_n ? ` LOSSY ${s.lossy_n}` : ''}`,
        ),
    ];
  },
  build(r) {
    const res = r.results!;
    const toks = r.meta.tokenizers.map((t) => t.name);
    const tok = primaryTokenizer(r);
    const fs = res.fixture_set;
    return {
      tiles: tiles(res, tok, r.provenance),
      blocks: [
        {
          kind: 'kv',
          items: [
            {
              label: 'Fixtures',
              value: html`<code>${fs.source}</code> (${fs.version}): ${fs.fixture_count} tool-call results captured over MCP, ${fs.tabular_count} tabular, ${fs.non_tabular_count} non-tabular`,
            },
            { label: 'Tabular rule', value: fs.tabular_rule },
            {
              label: 'Arms',
              value: html`${res.arms.map((a) => html`<code>${a.id}</code>: ${a.description}${a.library ? ` (${a.library})` : ''}; `)}`,
            },
            { label: 'Method', value: res.method },
          ],
        },
        { kind: 'heading', text: 'Tokens per arm and payload class', provenance: r.provenance.results },
        summaryTable(res, toks),
        { kind: 'heading', text: 'TOON vs JSON', provenance: r.provenance['results.savings_vs_json_pct'] },
        orderingTable(res),
        { kind: 'heading', text: 'Round trips', provenance: r.provenance.results },
        {
          kind: 'table',
          id: 'results-round-trip',
          columns: [
            { key: 'arm', label: 'Arm', type: 'key' },
            { key: 'checked', label: 'Checked', type: 'int' },
            { key: 'lossless', label: 'Lossless', type: 'int' },
            { key: 'skipped', label: 'Skipped', type: 'int' },
            { key: 'lossy', label: 'Lossy fixtures', type: 'text' },
          ],
          rows: res.round_trip.map((x) => ({
            arm: x.arm,
            checked: x.checked,
            lossless: x.lossless,
            skipped: x.skipped,
            lossy: x.lossy_fixtures.length ? x.lossy_fixtures.join(', ') : 'none',
          })),
          rowClasses: res.round_trip.map((x) => (x.lossy_fixtures.length ? 'err' : '')),
        },
        {
          kind: 'details',
          summary: `Every fixture (${res.fixtures.length}), tokens per arm under ${tok} and savings vs json; all tokenizers in tables/result_arms.parquet`,
          blocks: [fixtureTable(res, tok)],
        },
      ],
    };
  },
};
