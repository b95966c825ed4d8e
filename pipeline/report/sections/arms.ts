/** Encoding arms: listing tokens per tokenizer, savings vs baseline, ranking agreement, heaviest tools. */
import { BASELINE_ARM_ID } from '../../constants.ts';
import type { Block, Column, ReportSection, TableRow } from '../details.ts';
import { html, joinHtml } from '../html.ts';
import { badge, rich, tokenChange } from '../render.ts';
import type { Report } from '../types.ts';
import { leadColumns } from './common.ts';

export const armsSection: ReportSection<Report> = {
  id: 'arms',
  title: 'Encoding arms',
  provenanceKeys: ['arms', 'savings_vs_baseline_pct'],
  schemaRefs: ['#/$defs/arm', '#/$defs/arm_token_stats', '#/$defs/ranking_agreement'],
  summary: (r) => {
    const out: string[] = [];
    for (const c of r.corpora) {
      out.push(`\n${c.id} (${c.tool_count} tools)`);
      for (const a of r.arms.filter((x) => x.corpus_id === c.id)) {
        if (a.skipped) {
          out.push(`  ${a.arm.padEnd(14)} ${a.skip_reason}`);
          continue;
        }
        const cols = Object.entries(a.by_tokenizer).map(
          ([tk, s]) =>
            `${tk} ${String(s.total_tokens.value).padStart(7)} (${a.arm === BASELINE_ARM_ID ? 'baseline' : tokenChange(s.savings_vs_baseline_pct.value)})`,
        );
        const q = r.retrieval.find((x) => x.corpus_id === c.id && x.arm === a.arm);
        const qs = q && 'metrics' in q ? `  recall@5 ${q.metrics.recall_at_5.value.toFixed(3)} MRR ${q.metrics.mrr.value.toFixed(3)}` : '';
        out.push(`  ${a.arm.padEnd(14)} ${cols.join('  ')}${a.skipped_tools ? `  skipped tools ${a.skipped_tools}` : ''}${qs}`);
      }
    }
    return out;
  },
  build(r) {
    const toks = r.meta.tokenizers.map((t) => t.name);
    const columns: Column[] = [...leadColumns({ arm: 'key' }), { key: 'flags', label: 'Flags', type: 'text' }];
    for (const t of toks) {
      columns.push(
        { key: `total:${t}`, label: `Total (${t})`, type: 'figure' },
        { key: `mean:${t}`, label: `Mean/tool (${t})`, type: 'num', digits: 1 },
        { key: `p95:${t}`, label: `p95 (${t})`, type: 'num', digits: 0 },
        { key: `max:${t}`, label: `Max (${t})`, type: 'num', digits: 0 },
        { key: `savings:${t}`, label: `Savings (${t})`, type: 'figure', digits: 1, pct: true },
      );
    }
    columns.push(
      { key: 'skipped_tools', label: 'Skipped tools', type: 'int' },
      { key: 'retry_rate', label: 'Retry rate', type: 'num', digits: 2 },
    );
    const rows = r.arms.map((a): TableRow => {
      const flags = [];
      // an arm that could not run here (an optional package missing) is a warning, not a failure of the run
      if (a.skipped)
        flags.push(
          html`<span class="warn" title="this arm was not run; the others are unaffected">skipped (warning): ${(a.skip_reason ?? '').replace(/^skipped:\s*/i, '')}</span>`,
        );
      if (a.index_altering) flags.push(html`index-altering`);
      if (a.lower_bound) flags.push(html`lower-bound estimate`);
      const flagText = [
        a.skipped ? `skipped (warning): ${(a.skip_reason ?? '').replace(/^skipped:\s*/i, '')}` : '',
        a.index_altering ? 'index-altering' : '',
        a.lower_bound ? 'lower-bound estimate' : '',
      ]
        .filter(Boolean)
        .join(' ');
      const row: TableRow = {
        corpus_id: a.corpus_id,
        arm: a.arm,
        flags: rich(flags.length ? joinHtml(flags, '<br>') : html`<span class="muted">rendering only</span>`, flagText),
        skipped_tools: a.skipped ? null : a.skipped_tools,
        retry_rate: a.retry_rate,
      };
      for (const t of toks) {
        const s = a.by_tokenizer[t];
        Object.assign(row, {
          [`total:${t}`]: s?.total_tokens,
          [`mean:${t}`]: s?.mean,
          [`p95:${t}`]: s?.p95,
          [`max:${t}`]: s?.max,
          [`savings:${t}`]: s?.savings_vs_baseline_pct,
        });
      }
      return row;
    });
    const agree = r.ranking_agreement.map((x) => {
      const orders = Object.entries(x.by_tokenizer).map(([t, ids]) => html`<li><b>${t}</b>: ${ids.join(' < ')}</li>`);
      return html`${x.corpus_id}: ${x.same ? 'same arm ranking under every tokenizer' : html`<span class="bad">arm ranking differs between tokenizers</span>`}<ul>${orders}</ul>`;
    });
    const tok = toks[0];
    const heavy: Block[] = r.arms
      .filter((a) => !a.skipped)
      .map((a) => {
        const s = a.by_tokenizer[tok];
        const blocks: Block[] = [];
        if (s)
          blocks.push({
            kind: 'table',
            columns: [
              { key: 'tool_id', label: 'Tool', type: 'ident' },
              { key: 'tokens', label: `Tokens (${tok})`, type: 'int' },
            ],
            rows: s.heaviest.map((h) => ({ ...h })),
          });
        if (a.skip_examples.length)
          blocks.push({
            kind: 'table',
            columns: [
              { key: 'tool_id', label: 'Skipped tool', type: 'ident' },
              { key: 'error', label: 'Error', type: 'text' },
            ],
            rows: a.skip_examples.map((e) => ({ ...e })),
          });
        return {
          kind: 'details',
          summary: `${a.corpus_id} · ${a.arm}: heaviest tools${a.skip_examples.length ? ` and ${a.skipped_tools} skipped tools` : ''}`,
          blocks,
        };
      });
    return {
      blocks: [
        {
          kind: 'paragraph',
          text: html`Savings are relative to ${BASELINE_ARM_ID} on the same corpus and tokenizer ${badge(r.provenance.savings_vs_baseline_pct ?? 'computed')}; negative savings are red.`,
        },
        { kind: 'table', id: 'arms-table', columns, rows },
        { kind: 'heading', text: 'Ranking agreement across tokenizers' },
        agree.length ? { kind: 'list', items: agree } : { kind: 'list', items: [html`<span class="muted">no rankings</span>`] },
        { kind: 'heading', text: 'Heaviest tools and skip examples' },
        ...heavy,
      ],
    };
  },
};
